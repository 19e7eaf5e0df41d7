# dynapage in a container, a drop-in for amazon/dynamodb-local (docs/dynamodb-local.md): the same port (8000), the
# same working directory (/home/dynamodblocal), the same flags, in memory by default.
#
# This file builds from source (~30 minutes the first time). The release image is its runtime stage around the
# static binary, made in seconds by scripts/package.sh (scripts/docker-context.sh); docker-compose.yml uses that one.
#
#   docker build -t dynapage .          # needs a local debian:12 image: scripts/docker-base.sh makes one
#   docker run --rm -p 127.0.0.1:8000:8000 dynapage
#   docker run --rm -p 127.0.0.1:8000:8000 -v dynapage-data:/home/dynamodblocal/data dynapage -sharedDb -dbPath ./data
#
# Arguments replace the default command (CMD) as they do for amazon/dynamodb-local, so a compose `command:` such
# as "-jar DynamoDBLocal.jar -sharedDb -dbPath ./data" works unchanged (the java part is ignored).
# tests/sdk/python/test_docker_files.py checks this file natively; scripts/docker-test.sh builds the runtime stage
# from the binary CI built and runs the SDK smoke tests against the container.

# --- build: Debian 12 with scripts/deps.sh's packages, built by scripts/build.sh ---------------------------------
FROM debian:12 AS build
WORKDIR /src
# The dependencies first, in layers of their own that source changes do not invalidate: the packages and
# cpp-httplib's source, then RocksDB's release build (the benchmark's; ~15 minutes once, kept in this layer).
COPY scripts/deps.sh scripts/
RUN bash -c 'source scripts/deps.sh && install_packages ccache "${DYNAPAGE_BUILD_PACKAGES[@]}" && fetch_httplib_source'
RUN bash -c 'source scripts/deps.sh && build_rocksdb'
COPY . .
# The compiler cache outlives the layer (BuildKit's cache mount): a change to one .cc file recompiles that file.
RUN --mount=type=cache,target=/root/.ccache \
    DYNAPAGE_ROCKSDB=release DYNAPAGE_CMAKE_ARGS=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache bash scripts/build.sh dynapage \
 && bash scripts/docker-rootfs.sh build/dynapage /rootfs

# --- runtime: the binary and the C library on an empty base, as a non-root user -----------------------------------
FROM scratch
COPY --from=build /rootfs/ /
COPY --from=build --chown=1000:1000 /rootfs/home/dynamodblocal /home/dynamodblocal
USER 1000:1000
WORKDIR /home/dynamodblocal
VOLUME /home/dynamodblocal/data
EXPOSE 8000
# No shell or curl here: the binary probes itself (GET / on port 8000; a server started with another -port needs
# its compose file's healthcheck to add "--port N").
HEALTHCHECK --interval=2s --timeout=3s --retries=3 CMD ["/usr/local/bin/dynapage", "--health-check"]
ENTRYPOINT ["/usr/local/bin/dynapage", "--host", "0.0.0.0"]
CMD ["-jar", "DynamoDBLocal.jar", "-inMemory"]
