// How long our HTTPS servers keep an idle connection open. The API server's webhook client keeps
// one for 90 s (Go's default transport, client-go's defaults) and does not retry a POST whose
// connection the server closed as it was sent ("EOF"): a server must outlast it. Node's default is 5 s.
export const IDLE_CONNECTION_MS = 120_000;
