/**
 * The CSV layout of orders: one row per package, grouped into orders by `order_ref` and into
 * shipments by `shipment_ref`; each row may also carry one customs item. Every column, its level
 * (order, shipment, package, item), the field it fills (interface document, "Shipment (request
 * form …)", "Address object", "Package", "Customs information") and how its cell is read.
 * Shared by the reader (src/input/csv.ts), the mapping files, `shipbook csv template` and
 * `shipbook schema`.
 */

/** What a column belongs to: the order, its shipment (first row), the row's package, or the row's customs item. */
export type CsvLevel = 'order' | 'shipment' | 'package' | 'item';

/** How a cell is read: text as is, a decimal number, a whole number, true/false, a list of names, a saved sender. */
type CsvCellType = 'text' | 'number' | 'integer' | 'boolean' | 'list' | 'sender';

/** One column of the layout. */
export interface CsvColumn {
  /** The header, e.g. `delivery_postcode`. */
  name: string;
  level: CsvLevel;
  /** The field it fills, relative to the shipment, package or item (empty for `order_ref`; `tags` is beside `order:`). */
  path: readonly PropertyKey[];
  type: CsvCellType;
  /** Whether the field is required by the interface (for `collection_*`: unless `sender` is given). */
  required: boolean;
  /** One line for the table of columns that `shipbook schema csv` prints. */
  description: string;
  /** The example row of `shipbook csv template`. */
  example: string;
}

const address = (side: 'collection' | 'delivery', ex: Record<string, string>): CsvColumn[] => {
  const who = side === 'collection' ? 'sender' : 'recipient';
  const req = side === 'delivery';
  const col = (field: string, path: PropertyKey[], required: boolean, description: string): CsvColumn => ({
    name: `${side}_${field}`,
    level: 'shipment',
    path: [side, ...path],
    type: 'text',
    required: required && req,
    description,
    example: ex[field] ?? '',
  });
  return [
    col('first_name', ['first_name'], true, `${who}'s first name (at most 35 characters)`),
    col('last_name', ['last_name'], true, `${who}'s last name (at most 35 characters)`),
    col('company', ['company'], false, `${who}'s company (at most 35 characters)`),
    col('email', ['email'], true, `${who}'s e-mail address`),
    col('phone', ['phone'], true, `${who}'s phone number`),
    col('country', ['country'], true, 'two-letter country code, e.g. AU'),
    col('postcode', ['postcode'], true, 'postcode (kept as text: leading zeros stay)'),
    col('city', ['city'], true, 'city or suburb'),
    col('address_line_1', ['address_lines', 0], true, 'first address line (at most 35 characters)'),
    col('address_line_2', ['address_lines', 1], false, 'second address line'),
    col('address_line_3', ['address_lines', 2], false, 'third address line'),
  ];
};

/** Every column of the layout, in the order of `shipbook csv template`. */
export const CSV_COLUMNS: readonly CsvColumn[] = [
  {
    name: 'order_ref',
    level: 'order',
    path: [],
    type: 'text',
    required: true,
    description: 'your reference of the order: consecutive rows with the same order_ref form one order (not sent)',
    example: 'SO-10482',
  },
  {
    name: 'shipment_ref',
    level: 'shipment',
    path: ['transient_id'],
    type: 'text',
    required: false,
    description: "rows of an order with the same shipment_ref form one shipment; sent as the shipment's transient_id (at most 35 characters)",
    example: 'SO-10482-1',
  },
  {
    name: 'service_code',
    level: 'shipment',
    path: ['service', 'code'],
    type: 'text',
    required: true,
    description: 'service code from a quote (shipbook quote …)',
    example: 'SB-DOM-ROAD',
  },
  {
    name: 'service_options',
    level: 'shipment',
    path: ['service', 'options'],
    type: 'list',
    required: false,
    description: 'service options, separated by | (e.g. insurance)',
    example: '',
  },
  {
    name: 'collection_type',
    level: 'shipment',
    path: ['collection_type'],
    type: 'text',
    required: true,
    description: 'pickup, or dropoff (only for shipments leaving Australia)',
    example: 'pickup',
  },
  {
    name: 'sender',
    level: 'shipment',
    path: ['collection'],
    type: 'sender',
    required: false,
    description: 'a saved sender, @name (shipbook config sender set); instead of the collection_* columns, which override its fields',
    example: '',
  },
  ...address('collection', {
    first_name: 'Priya',
    last_name: 'Raman',
    company: 'Harbour Homewares Pty Ltd',
    email: 'dispatch@harbourhomewares.com.au',
    phone: '+61 2 9555 0142',
    country: 'AU',
    postcode: '2015',
    city: 'Alexandria',
    address_line_1: 'Unit 4, 18 Bourke Road',
  }),
  {
    name: 'pickup_date',
    level: 'shipment',
    path: ['collection', 'pickup', 'date'],
    type: 'text',
    required: false,
    description: 'pickup date, YYYY-MM-DD (required for pickup)',
    example: '2026-12-01',
  },
  {
    name: 'pickup_time_earliest',
    level: 'shipment',
    path: ['collection', 'pickup', 'time_earliest'],
    type: 'text',
    required: false,
    description: 'earliest pickup time, HH:MM',
    example: '09:00',
  },
  {
    name: 'pickup_time_latest',
    level: 'shipment',
    path: ['collection', 'pickup', 'time_latest'],
    type: 'text',
    required: false,
    description: 'latest pickup time, HH:MM',
    example: '15:00',
  },
  ...address('delivery', {
    first_name: 'Tom',
    last_name: 'Nguyen',
    email: 'tom.nguyen@example.com.au',
    phone: '+61 412 555 019',
    country: 'AU',
    postcode: '3000',
    city: 'Melbourne',
    address_line_1: 'Level 12, 120 Collins Street',
  }),
  {
    name: 'description',
    level: 'shipment',
    path: ['description'],
    type: 'text',
    required: true,
    description: 'brief description of the goods (at most 35 characters)',
    example: 'Homewares',
  },
  {
    name: 'customs_reason',
    level: 'shipment',
    path: ['customs_information', 'reason'],
    type: 'text',
    required: true,
    description: 'Gift, Purchase, Sale, Sample, Return, Repair or Personal Effects',
    example: 'Sale',
  },
  {
    name: 'customs_tax_status',
    level: 'shipment',
    path: ['customs_information', 'tax_status'],
    type: 'text',
    required: true,
    description: 'Private or Company',
    example: 'Company',
  },
  {
    name: 'customs_lithium',
    level: 'shipment',
    path: ['customs_information', 'lithium'],
    type: 'boolean',
    required: true,
    description: 'whether the shipment contains lithium products: true or false (yes/no, 1/0)',
    example: 'false',
  },
  {
    name: 'customs_description',
    level: 'shipment',
    path: ['customs_information', 'description'],
    type: 'text',
    required: false,
    description: 'customs comments (at most 512 characters)',
    example: '',
  },
  {
    name: 'package_length',
    level: 'package',
    path: ['length'],
    type: 'number',
    required: true,
    description: "this row's package: length (cm, or in with unit in)",
    example: '40',
  },
  { name: 'package_width', level: 'package', path: ['width'], type: 'number', required: true, description: 'width', example: '30' },
  { name: 'package_height', level: 'package', path: ['height'], type: 'number', required: true, description: 'height', example: '25' },
  {
    name: 'package_weight',
    level: 'package',
    path: ['weight'],
    type: 'number',
    required: true,
    description: 'weight (kg, or lb with unit in)',
    example: '6.5',
  },
  {
    name: 'package_unit',
    level: 'package',
    path: ['unit'],
    type: 'text',
    required: true,
    description: 'cm (centimetres and kilograms) or in (inches and pounds)',
    example: 'cm',
  },
  {
    name: 'item_description',
    level: 'item',
    path: ['description'],
    type: 'text',
    required: true,
    description: "this row's customs item: description (at most 35 characters)",
    example: 'Ceramic dinner plates',
  },
  { name: 'item_quantity', level: 'item', path: ['quantity'], type: 'integer', required: true, description: 'how many of this item', example: '12' },
  {
    name: 'item_value',
    level: 'item',
    path: ['value'],
    type: 'number',
    required: true,
    description: 'value of one item, AUD (all items of a shipment at most 7500 AUD)',
    example: '18.50',
  },
  { name: 'item_currency', level: 'item', path: ['currency'], type: 'text', required: true, description: 'AUD (the only currency)', example: 'AUD' },
  { name: 'item_madein', level: 'item', path: ['madein'], type: 'text', required: true, description: 'country of manufacture, two-letter code', example: 'AU' },
  {
    name: 'tags',
    level: 'order',
    path: ['tags'],
    type: 'list',
    required: false,
    description: "tags of the order for the service-selection rules' `tags` condition, separated by ; (the rows of an order together; not sent)",
    example: '',
  },
];

/** The columns by name. */
export const CSV_COLUMN_BY_NAME: ReadonlyMap<string, CsvColumn> = new Map(CSV_COLUMNS.map((c) => [c.name, c]));

/** A header cell as a column name: trimmed, lower-case, spaces and hyphens as underscores (`Delivery Postcode` → `delivery_postcode`). */
export function normaliseHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** True when `a` and `b` are the same path. */
export function samePath(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** True for a file name that holds a spreadsheet: `.csv` or `.tsv`. */
export function isCsvName(file: string): boolean {
  return /\.(csv|tsv)$/i.test(file);
}
