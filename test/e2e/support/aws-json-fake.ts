// An AWS service that speaks the JSON protocol (Secrets Manager, EventBridge), on loopback: the real
// SDK clients reach it through AWS_ENDPOINT_URL_<SERVICE>, as they would AWS. It answers the
// operations it is given, checks that each request is SigV4-signed for its service and Region, and
// records them. Never imported by production code.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AwsJsonRequest = { target: string; body: Record<string, unknown>; scope: string };
export type AwsJsonFake = { url: string; requests: AwsJsonRequest[]; close(): Promise<void> };

/** `operations`: X-Amz-Target (e.g. secretsmanager.GetSecretValue) → the answer's JSON. */
export async function startAwsJsonFake(service: string, region: string, operations: Record<string, (body: Record<string, unknown>) => unknown>): Promise<AwsJsonFake> {
  const requests: AwsJsonRequest[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const scope = /Credential=[^/]+\/\d{8}\/([^/]+\/[^/]+)\/aws4_request/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      requests.push({ target, body, scope });
      const op = operations[target];
      const [status, json] = scope !== `${region}/${service}`
        ? [403, { __type: 'InvalidSignatureException', message: `signed for ${scope || 'nothing'}, not ${region}/${service}` }]
        : op ? [200, op(body)] : [400, { __type: 'UnknownOperationException', message: target }];
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
