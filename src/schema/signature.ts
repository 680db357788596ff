/** Digital signature images: BASE64-encoded PNG or JPG (interface document, `options.digital_signature`). */

/** Largest signature image accepted, in bytes after decoding (1 MiB). */
const MAX_SIGNATURE_BYTES = 1024 * 1024;

/**
 * True when `value` is BASE64 (optionally a `data:image/...;base64,` URL) whose decoded bytes
 * start like a PNG (`89 50 4E 47 0D 0A 1A 0A`) or a JPEG (`FF D8 FF`).
 */
export function isDigitalSignatureImage(value: string): boolean {
  const b64 = value.replace(/^data:image\/(png|jpe?g);base64,/i, '').replace(/\s+/g, '');
  if (b64.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return false;
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length === 0 || bytes.length > MAX_SIGNATURE_BYTES) return false;
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return true;
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}
