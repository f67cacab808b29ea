# The self-hosted image: the webhook server and the reconcile loop, as built JavaScript on a slim
# Node 22, run as a non-root user, with no node_modules (esbuild bundles every dependency).
#   docker build -t kruise-serverless .
#   webhook server:  docker run ... kruise-serverless                      (node /app/server.mjs)
#   reconcile loop:  docker run ... kruise-serverless /app/cli.mjs reconcile
# Deploying it: docs/deploy-self-hosted.md (infra/kustomize).

FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsx scripts/build.ts

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# dist/node is self-contained: server.mjs, cli.mjs and their chunks. infra/crds is what
# `cli.mjs install` applies (it looks for infra/crds beside the bundle).
COPY --from=build --chown=root:root /src/dist/node/ /app/
COPY --from=build --chown=root:root /src/infra/crds/ /app/infra/crds/
# The image's `node` user (uid 1000), numeric so that runAsNonRoot can check it.
USER 1000:1000
EXPOSE 8443
ENTRYPOINT ["node"]
CMD ["/app/server.mjs"]
