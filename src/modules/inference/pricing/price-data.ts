import { updatePrices, type Provider, type ProviderDataPayload } from '@pydantic/genai-prices';

/**
 * The package keeps one price table per process (the bundled data until replaced). Replacing it bumps a version so
 * every PriceTable drops the model lookups it cached from the old table.
 */
let version = 0;
let setProviderData: ((data: ProviderDataPayload) => void) | undefined;

/** Changes whenever the table is replaced. */
export function priceDataVersion(): number {
  return version;
}

/**
 * Makes `providers` the table `calcPrice` reads. Given data rather than a promise, the package validates and swaps
 * synchronously: on invalid data it throws here and keeps the previous table.
 */
export function replacePriceData(providers: Provider[]): void {
  if (!setProviderData) {
    updatePrices((options) => {
      setProviderData = options.setProviderData;
    });
  }
  setProviderData!(providers);
  version++;
}

/** The shape check done before handing downloaded JSON to the package: an array of providers with model lists. */
export function isProviderList(data: unknown): data is Provider[] {
  return (
    Array.isArray(data) &&
    data.length > 0 &&
    data.every(
      (p: unknown) =>
        typeof p === 'object' &&
        p !== null &&
        typeof (p as Provider).id === 'string' &&
        typeof (p as Provider).api_pattern === 'string' &&
        Array.isArray((p as Provider).models),
    )
  );
}
