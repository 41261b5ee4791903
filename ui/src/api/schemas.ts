import type { components, operations } from './openapi.js';

/** A schema of the API document by name: `Schema<'RequestLog'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The query parameters of an operation by its operationId: `QueryOf<'listLogs'>`. */
export type QueryOf<Id extends keyof operations> = NonNullable<operations[Id]['parameters']['query']>;
