// One tcpSocket or httpGet probe against a pod, as the kubelet's probers do it (k8s.io/kubernetes
// pkg/probe/tcp and pkg/probe/http): tcp succeeds when a connection opens; http when the answer's
// status is 2xx or 3xx (redirects are not followed), with User-Agent `kube-probe` and Accept `*/*`
// unless the probe sets them, and without verifying an https certificate. Node only.
import { Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ProbeAction } from './targets.js';

export type Outcome = { ok: boolean; message: string };

const hostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

function tcpProbe(host: string, port: number, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (o: Outcome) => {
      socket.destroy();
      resolve(o);
    };
    socket.setTimeout(timeoutMs, () => done({ ok: false, message: `dial tcp ${hostPort(host, port)}: i/o timeout` }));
    socket.once('error', (e) => done({ ok: false, message: `dial tcp ${hostPort(host, port)}: ${e.message}` }));
    socket.connect(port, host, () => done({ ok: true, message: '' }));
  });
}

function httpProbe(a: Extract<ProbeAction, { kind: 'http' }>, timeoutMs: number): Promise<Outcome> {
  const headers: Record<string, string> = {};
  for (const [k, v] of a.headers) headers[k] = headers[k] ? `${headers[k]}, ${v}` : v;
  const has = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name);
  if (!has('user-agent')) headers['User-Agent'] = 'kube-probe';
  if (!has('accept')) headers.Accept = '*/*';
  const path = a.path.startsWith('/') ? a.path : `/${a.path}`;
  const url = `${a.scheme}://${hostPort(a.host, a.port)}${path}`;
  return new Promise((resolve) => {
    const send = a.scheme === 'https' ? httpsRequest : httpRequest;
    const req = send({ host: a.host, port: a.port, path, method: 'GET', headers, timeout: timeoutMs, ...(a.scheme === 'https' ? { rejectUnauthorized: false } : {}) }, (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 400 ? { ok: true, message: '' } : { ok: false, message: `HTTP probe failed with statuscode: ${code}` });
    });
    req.once('timeout', () => req.destroy(new Error('context deadline exceeded (Client.Timeout exceeded while awaiting headers)')));
    req.once('error', (e) => resolve({ ok: false, message: `Get "${url}": ${e.message}` }));
    req.end();
  });
}

export function runProbe(action: ProbeAction, timeoutSeconds: number): Promise<Outcome> {
  const timeoutMs = timeoutSeconds * 1000;
  return action.kind === 'tcp' ? tcpProbe(action.host, action.port, timeoutMs) : httpProbe(action, timeoutMs);
}
