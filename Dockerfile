# One image for every node of the cluster; SERVICES picks what a container runs.
# It holds the composition root (server/), the services, the gateway and the
# libraries they use; the test kit's code is left out.
FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/
COPY packages/protocol/package.json packages/protocol/
COPY packages/markdown/package.json packages/markdown/
COPY packages/dev-servers/package.json packages/dev-servers/
COPY services/user/package.json services/user/
COPY services/group/package.json services/group/
COPY services/chat/package.json services/chat/
COPY services/file/package.json services/file/
COPY services/push/package.json services/push/
COPY services/moderation/package.json services/moderation/
COPY services/integration/package.json services/integration/
COPY services/mail/package.json services/mail/
COPY services/call/package.json services/call/
COPY services/import/package.json services/import/
COPY gateway/package.json gateway/
COPY server/package.json server/
# Only the workspaces the image runs: npm ci leaves the others (the test kit,
# the web client, the benchmarks) out, with their dependencies.
RUN npm ci --omit=dev --no-audit --no-fund
COPY packages/sdk packages/sdk
COPY packages/protocol packages/protocol
COPY packages/markdown packages/markdown
COPY packages/dev-servers packages/dev-servers
COPY services services
COPY gateway gateway
COPY server server
# TypeScript runs directly on Node 24 (type stripping): no build step.
USER node
EXPOSE 3000
CMD ["node", "server/src/start.ts"]
