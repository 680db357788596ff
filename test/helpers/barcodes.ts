/**
 * zbarimg's arguments for reading the barcodes shipbook prints on its PDFs.
 *
 * Every barcode shipbook draws is Code 128. Left on its defaults, zbar also tries EAN, UPC,
 * Interleaved 2 of 5 and DataBar, and now and then reads a run of table rules or digits as one
 * of those (a "100726" that is on no page). A dock scanner is set to the symbology it expects
 * too, so the tests read Code 128 only; `-q --raw` prints one decoded text per line.
 */
export const CODE128_ONLY = ['-q', '--raw', '-Sdisable', '-Scode128.enable'] as const;
