# lama-bot in a small image: python:3.11-slim, the bot installed as a package, run as an
# unprivileged user, its database in the /data volume.
#   docker build -t lama-bot .
#   docker run -d --name lama-bot --env-file .env -v lama-data:/data lama-bot
#   docker run --rm --env-file .env lama-bot sync    # publishes the slash commands, then exits
# See deploy/compose.yaml and docs/host/index.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin lama \
    && mkdir /data && chown lama:lama /data

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
COPY data ./data
COPY game ./game
# PostgreSQL support comes along; pass --build-arg EXTRAS= for SQLite only.
ARG EXTRAS=postgres
RUN pip install ".${EXTRAS:+[$EXTRAS]}" && rm -rf /app/*

USER lama
WORKDIR /data
ENV DATABASE_PATH=/data/lama.db
VOLUME ["/data"]

# /metrics and /healthz (docs/host/index.md: "Metrics and health"), on every interface of the container;
# publish the port only where Prometheus can reach it.
ENV METRICS_HOST=0.0.0.0 \
    METRICS_PORT=9108
EXPOSE 9108
# Asks the /healthz the bot serves with the same settings (METRICS_PORT on METRICS_HOST, from
# the environment and /data/.env): healthy on 200 (the gateway connected, the database
# answering), unhealthy on 503 or no answer, its reason in `docker inspect`; with METRICS_PORT
# set empty it says that nothing is checked.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.healthcheck"]

# The bot handles SIGTERM itself, also as PID 1: it closes the gateway and the database
# and exits 0 within a few seconds of `docker stop`.
STOPSIGNAL SIGTERM
ENTRYPOINT ["lama-bot"]
