// Imported first by the benchmark entry, before anything that loads Miniflare: nothing the
// benchmark starts may phone home (wrangler metrics, Miniflare's request.cf fetch). Child
// processes inherit the environment.
process.env.WRANGLER_SEND_METRICS = 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
