/**
 * The quote questions (interface document, "Get quote: POST /quote/"): where from and where to
 * (country from the searchable list, postcode, city) and the packages — only those that flags
 * did not give. Each answer is checked by the quote schema's own fields.
 */
import { quoteRequest } from '../schema/quote.js';
import { askCountry } from './address.js';
import { askText, type PromptIO } from './ask.js';
import { askPackages, type PackageInput } from './packages.js';

/** A place of a quote: country code, postcode, city. */
interface QuotePlace {
  country: string;
  postcode: string;
  city: string;
}

/** Asks for one end of the route, e.g. `Collect from` / `Deliver to`. */
async function askPlace(io: PromptIO, who: 'collection' | 'delivery'): Promise<QuotePlace> {
  const label = who === 'collection' ? 'From' : 'To';
  const shape = quoteRequest.shape;
  const country = await askCountry(io, `${label} country (type to search)`);
  const postcode = await askText(io, { message: `${label} postcode`, schema: who === 'collection' ? shape.collection_postcode : shape.delivery_postcode });
  const city = await askText(io, { message: `${label} city`, schema: who === 'collection' ? shape.collection_city : shape.delivery_city });
  return { country, postcode, city };
}

/** What a quote has so far (from flags); the rest is asked. */
export interface PartialQuote {
  from?: QuotePlace;
  to?: QuotePlace;
  packages?: PackageInput[];
}

/** What a quote lacks without prompts, each with the flag that supplies it. */
export function missingQuoteParts(q: PartialQuote): string[] {
  return [
    ...(q.from ? [] : ['--from COUNTRY:POSTCODE:CITY (where the parcels are collected)']),
    ...(q.to ? [] : ['--to COUNTRY:POSTCODE:CITY (where they go)']),
    ...(q.packages && q.packages.length > 0 ? [] : ['--package LxWxH<cm|in>:<weight><kg|lb> (at least one; repeat for more)']),
  ];
}

/** Asks for the parts of a quote the flags did not give. @returns the complete route and packages */
export async function askQuote(io: PromptIO, q: PartialQuote): Promise<Required<PartialQuote>> {
  const from = q.from ?? (await askPlace(io, 'collection'));
  const to = q.to ?? (await askPlace(io, 'delivery'));
  const packages = q.packages && q.packages.length > 0 ? q.packages : await askPackages(io);
  return { from, to, packages };
}
