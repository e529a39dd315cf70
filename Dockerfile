# Build stage: the release binary (the dataset is embedded in it).
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin mds

# Runtime stage: a small Debian image, no compiler, running as a non-root user.
FROM debian:bookworm-slim
# /var/lib/mds holds the sync's copies (a named volume takes this owner when created).
RUN useradd --system --uid 10001 --home /app mds && mkdir -p /app /var/lib/mds && chown mds /app /var/lib/mds
COPY --from=build /src/target/release/mds /usr/local/bin/mds
USER mds
WORKDIR /app
ENV MDS_BIND=0.0.0.0:8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s CMD ["mds", "probe", "http://127.0.0.1:8080/readyz"]
ENTRYPOINT ["mds"]
CMD ["serve"]
