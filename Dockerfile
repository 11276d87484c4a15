# syntax=docker/dockerfile:1
# cdn-operator container image.
#   build   npm ci (all dependencies) + tsc, then `npm pack`: the same tarball a registry gets
#   bundle  that tarball unpacked + `npm ci --omit=dev`: production dependencies only
#   runtime Node, non-root (uid/gid 1000, the base image's `node` user), the bundle only; the
#           entrypoint is node itself, so no shell is needed at run time; the chart runs it with
#           a read-only root filesystem
# test/e2e/packaging/bundle.test.ts builds the same bundle the same way and starts the operator
# from it. NODE_IMAGE is the base of every stage: any image with Node.js 22 or newer, npm and a
# uid 1000. The release runs on the active LTS of hack/node-versions (NODE_LTS, 26.10.0): the
# official node:26.10.0-alpine; without a registry, hack/image/build.sh makes a Debian base here
# with the same Node.js release (hack/image/make-base.sh) and builds with buildah:
#   buildah bud --build-arg NODE_IMAGE=localhost/cdn-operator-base:... -t cdn-operator:dev .
# A Node.js patch release: bump NODE_LTS in hack/node-versions and the tag below together
# (test/unit/packaging/node-versions.test.ts checks they agree), then rebuild (docs/install.md).
# Build with Docker: docker build -t ghcr.io/cdn-operator/cdn-operator:0.1.0 .
ARG NODE_IMAGE=node:26.10.0-alpine

FROM ${NODE_IMAGE} AS build
# Extra CAs for npm behind a TLS-inspecting proxy, mounted for the build only (never in the image).
ARG NODE_EXTRA_CA_CERTS=""
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json README.md ./
COPY src ./src
COPY crds ./crds
RUN npx tsc -p tsconfig.build.json \
 && npm pack --ignore-scripts --pack-destination /tmp \
 && mv /tmp/cdn-operator-*.tgz /tmp/cdn-operator.tgz

FROM ${NODE_IMAGE} AS bundle
ARG NODE_EXTRA_CA_CERTS=""
WORKDIR /app
COPY --from=build /tmp/cdn-operator.tgz /tmp/cdn-operator.tgz
RUN tar -xzf /tmp/cdn-operator.tgz --strip-components=1 -C /app && rm /tmp/cdn-operator.tgz
COPY package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && rm -rf /root/.npm

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and not writable by the operator: the pod also runs with a read-only root FS.
COPY --from=bundle /app /app
USER 1000:1000
EXPOSE 8080 8081
ENTRYPOINT ["node", "/app/dist/main.js"]
