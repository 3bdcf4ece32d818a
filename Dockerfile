# routemap container image.
#   docker build -t routemap .
#   docker run -p 8080:8080 -v routemap-data:/data routemap
# Builder and runtime are both Debian 12 (bookworm), so package names and glibc match.

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
RUN swift build -c release --product routemap --static-swift-stdlib \
 && install -D .build/release/routemap /out/usr/local/bin/routemap
COPY Migrations /out/usr/local/share/routemap/Migrations
COPY Public /out/usr/local/share/routemap/Public

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin routemap \
 && mkdir -p /data && chown routemap:routemap /data
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
