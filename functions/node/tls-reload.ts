// Serves a rotated certificate without a restart. cert-manager (or anything renewing a Secret)
// rewrites the mounted files; a Kubernetes secret volume does it by swapping its `..data` symlink,
// which a watch on the file itself does not always see. So: a watch on each file's directory
// triggers a check, and a periodic check catches what the watch misses. A check reads both files
// and, when their contents changed and they form a valid pair, gives new connections the new
// certificate (setSecureContext); connections already open keep theirs. A half-written pair
// (the new cert with the old key) fails createSecureContext: the current one stays until the next
// check.
import { createHash } from 'node:crypto';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import { createSecureContext, type Server } from 'node:tls';

export type TlsFiles = { cert: string; key: string };

export type TlsReloadOptions = {
  /** The periodic check, in ms (the watch usually acts sooner). */
  intervalMs: number;
  log?: (message: string) => void;
};

export type TlsReloader = {
  /** Reads the files now and swaps the certificate if they changed; true when it did. */
  check(): boolean;
  close(): void;
};

export function readTlsFiles(files: TlsFiles): { cert: string; key: string } {
  return { cert: readFileSync(files.cert, 'utf8'), key: readFileSync(files.key, 'utf8') };
}

const fingerprint = (pair: { cert: string; key: string }) => createHash('sha256').update(pair.cert).update('\0').update(pair.key).digest('hex');

/** Keeps `server`'s certificate in step with `files`. `loaded` is the pair the server started with. */
export function reloadTlsOnChange(server: Server, files: TlsFiles, loaded: { cert: string; key: string }, opts: TlsReloadOptions): TlsReloader {
  const log = opts.log ?? (() => {});
  let current = fingerprint(loaded);
  let lastError = '';
  const check = (): boolean => {
    let pair;
    try {
      pair = readTlsFiles(files);
    } catch (e) {
      report(`cannot read ${files.cert} / ${files.key}: ${(e as Error).message}`);
      return false;
    }
    const next = fingerprint(pair);
    if (next === current) return false;
    try {
      createSecureContext(pair);
    } catch (e) {
      report(`new certificate in ${files.cert} not loaded yet (${(e as Error).message}); keeping the current one`);
      return false;
    }
    server.setSecureContext(pair);
    current = next;
    lastError = '';
    log(`TLS certificate reloaded from ${files.cert}`);
    return true;
  };
  const report = (message: string) => {
    if (message !== lastError) log(message);
    lastError = message;
  };

  const watchers: FSWatcher[] = [];
  for (const dir of new Set([dirname(files.cert), dirname(files.key)])) {
    try {
      const w = watch(dir, () => check());
      w.on('error', () => w.close());
      watchers.push(w);
    } catch {
      // No watch here (some filesystems): the periodic check alone.
    }
  }
  const timer = setInterval(check, opts.intervalMs);
  timer.unref();
  return {
    check,
    close() {
      clearInterval(timer);
      for (const w of watchers) w.close();
    },
  };
}
