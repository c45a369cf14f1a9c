# One image for every node of the cluster; SERVICES picks what a container runs.
FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/
COPY packages/protocol/package.json packages/protocol/
COPY packages/testkit/package.json packages/testkit/
COPY packages/runner/package.json packages/runner/
COPY services/user/package.json services/user/
COPY services/group/package.json services/group/
COPY services/chat/package.json services/chat/
COPY services/file/package.json services/file/
COPY services/push/package.json services/push/
COPY gateway/package.json gateway/
COPY client/package.json client/
COPY benchmark/package.json benchmark/
RUN npm ci --omit=dev --no-audit --no-fund
COPY packages packages
COPY services services
COPY gateway gateway
# TypeScript runs directly on Node 24 (type stripping): no build step.
USER node
EXPOSE 3000
CMD ["node", "packages/runner/src/start.ts"]
