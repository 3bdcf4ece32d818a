# routemap container image.
#   docker build -t routemap .
#   docker run -p 8080:8080 -v routemap-data:/data routemap
# Builder and runtime are both Debian 12 (bookworm), so package names and glibc match.
# scripts/container-test (`make container-test`) proves the runtime stage without a Docker engine:
# it builds the same root from docker/ and runs this stage's ENTRYPOINT, CMD, ENV, USER and
# HEALTHCHECK in it. Keep ENV as KEY=value and ENTRYPOINT/CMD/HEALTHCHECK in JSON form; it reads them.

FROM swift:6.3-bookworm AS builder
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies in their own layer, so source edits don't refetch them.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
COPY Migrations ./Migrations
COPY Public ./Public
COPY docker ./docker
# Release build with the Swift runtime linked statically; lays out /out/usr/local/{bin,share/routemap}.
RUN docker/build-release /out

FROM debian:bookworm-slim
# Exactly the packages of docker/runtime-packages.txt, the user routemap (uid/gid 10001) and /data.
COPY docker/runtime-packages.txt docker/setup-runtime /tmp/routemap-setup/
RUN /tmp/routemap-setup/setup-runtime && rm -rf /tmp/routemap-setup
COPY --from=builder /out/ /
USER routemap
VOLUME ["/data"]
EXPOSE 8080
ENV ROUTEMAP_HOST=0.0.0.0 \
    ROUTEMAP_PORT=8080 \
    ROUTEMAP_DB=/data/routemap.sqlite \
    ROUTEMAP_MIGRATIONS=/usr/local/share/routemap/Migrations \
    ROUTEMAP_PUBLIC=/usr/local/share/routemap/Public
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/routemap", "healthcheck"]
# SIGTERM (docker stop) stops gracefully: in-flight requests finish, the database is checkpointed.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/routemap"]
CMD ["serve"]
