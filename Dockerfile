# dynapage in a container: a persistent local DynamoDB on port 8000 (docker-compose.yml mounts a named volume on /data).
#
#   docker build -t dynapage .
#   docker run --rm -p 127.0.0.1:8000:8000 -v dynapage-data:/data dynapage
#
# Extra arguments go to dynapage after the defaults and win over them:
#   docker run --rm -p 127.0.0.1:8000:8000 dynapage --max-page-bytes 4096
# tests/sdk/python/test_docker_files.py keeps this file honest without a Docker engine: the build stage runs the same
# scripts as CI (scripts/deps.sh, scripts/build.sh), the runtime packages are exactly the shared libraries the built
# binary needs, and the ENTRYPOINT and HEALTHCHECK commands are run natively against the built binary.

# --- build: Debian 12 with the build packages of scripts/deps.sh, built by scripts/build.sh --------------------------
FROM debian:12 AS build
WORKDIR /src
# The packages first, in a layer of their own that source changes do not invalidate.
COPY scripts/deps.sh scripts/
RUN bash -c 'source scripts/deps.sh && install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}"'
COPY . .
RUN bash scripts/build.sh dynapage
RUN strip --strip-debug -o /dynapage build/dynapage

# --- runtime: Debian 12 slim with only the shared libraries dynapage links, as a non-root user ---------------------
FROM debian:12-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libc6 \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin dynapage \
 && mkdir -p /data \
 && chown dynapage:dynapage /data
COPY --from=build /dynapage /usr/local/bin/dynapage
USER 10001:10001
WORKDIR /data
VOLUME /data
EXPOSE 8000
# GET / answers "healthy: ..."; slim has no curl, so bash's /dev/tcp speaks the HTTP.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["bash", "-c", \
       "exec 3<>/dev/tcp/127.0.0.1/8000 && printf 'GET / HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && grep -q '^healthy' <&3"]
ENTRYPOINT ["dynapage", "--host", "0.0.0.0", "--port", "8000", "--db-path", "/data"]
