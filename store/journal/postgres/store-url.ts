// A PostgreSQL store URL (DESIGN §14): recognized, and shown without its secrets (one definition, in config/).
export { isPostgresUrl, redactStoreUrl } from '../../../config/parse-store-url.js';
