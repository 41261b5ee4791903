// Every migration, in order. New files are added here by `npm run migration:generate`.
export const MIGRATIONS: Array<new () => unknown> = [];
