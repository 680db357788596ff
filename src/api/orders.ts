/**
 * Orders: interface document, "Create order: POST /orders/", "Accept order: PUT
 * /orders/{order_id}/accept/", and the assumed fetch-order-data and cancel-order paths of
 * PRODUCT.md (`GET /orders/{order_id}/`, `PUT /orders/{order_id}/cancel/`, settings of a profile).
 */
import { orderResult, type OrderResponse } from '../schema/order.js';
import type { CreateOrderRequest } from '../schema/order.js';
import type { AcceptRequest } from '../schema/payment.js';
import type { ApiClient } from './client.js';

/** Paths of the operations the interface document does not show; `{order_id}` is replaced. */
export interface OrderPaths {
  /** fetch-order-data, default `orders/{order_id}/` (GET). */
  fetchOrder: string;
  /** cancel-order, default `orders/{order_id}/cancel/` (PUT). */
  cancelOrder: string;
}

/** The assumed paths of PRODUCT.md. */
export const DEFAULT_ORDER_PATHS: OrderPaths = {
  fetchOrder: 'orders/{order_id}/',
  cancelOrder: 'orders/{order_id}/cancel/',
};

function orderPath(template: string, orderId: string): string {
  return template.replace('{order_id}', encodeURIComponent(orderId));
}

/** `POST /orders/`: stores the order as pending; returns it with the exact price (numbers). */
export async function createOrder(api: ApiClient, order: CreateOrderRequest): Promise<OrderResponse> {
  return (await api.call({ method: 'POST', path: 'orders/', body: order, result: orderResult })).order;
}

/** `PUT /orders/{order_id}/accept/`: payment and callback; answers 201 with status `ACC` (acknowledgement only). */
export async function acceptOrder(api: ApiClient, orderId: string, accept: AcceptRequest): Promise<OrderResponse> {
  return (
    await api.call({ method: 'PUT', path: orderPath('orders/{order_id}/accept/', orderId), body: accept, result: orderResult })
  ).order;
}

/** fetch-order-data (assumed `GET /orders/{order_id}/`): the order's current status and tracking numbers. */
export async function fetchOrder(api: ApiClient, orderId: string, paths: OrderPaths = DEFAULT_ORDER_PATHS): Promise<OrderResponse> {
  return (await api.call({ method: 'GET', path: orderPath(paths.fetchOrder, orderId), result: orderResult })).order;
}

/** cancel-order (assumed `PUT /orders/{order_id}/cancel/`): cancels a pending order. */
export async function cancelOrder(api: ApiClient, orderId: string, paths: OrderPaths = DEFAULT_ORDER_PATHS): Promise<OrderResponse> {
  return (await api.call({ method: 'PUT', path: orderPath(paths.cancelOrder, orderId), body: {}, result: orderResult })).order;
}
