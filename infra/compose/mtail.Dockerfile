# syntax=docker/dockerfile:1
# mtail for the compose deployment (host A, beside nginx): there is no official image, so this is
# Debian's mtail package (the same mtail the native stack runs) on a Debian base pinned in
# infra/versions.env (IMAGE_DEBIAN). Compose builds it from the repository root (compose/host-a.yml).
# Its program comes from infra/monitoring/mtail, mounted read-only; nginx sends it the access log
# over syslog (UDP on loopback: the two share a network namespace), so no log file is involved.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends mtail \
 && rm -rf /var/lib/apt/lists/*
USER 65534:65534
ENTRYPOINT ["mtail"]
