"""deploy/compose.yaml: each container is handed only the secrets it uses."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "deploy" / "compose.yaml"

# Each secret the setup has, and the containers that use it.
USERS = {
    "DISCORD_TOKEN": {"lama-bot", "lama-shards-0-1", "lama-shards-2-3"},
    "DATABASE_URL": {"lama-bot", "lama-shards-0-1", "lama-shards-2-3"},
    "POSTGRES_PASSWORD": {"postgres"},
}


def services() -> dict[str, str]:
    """Each service's block of compose.yaml, by name (no YAML library in the image)."""
    text = COMPOSE.read_text(encoding="utf-8")
    body = text.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    blocks = re.split(r"^  (?=[\w-]+:\s*$)", body, flags=re.M)
    return {
        block.split(":", 1)[0]: block
        for block in blocks
        if block.strip() and not block.startswith(" ")
    }


def env_files(block: str) -> list[Path]:
    return [
        (COMPOSE.parent / name).resolve()
        for name in re.findall(r"^    env_file:\s*(\S+)", block, flags=re.M)
    ]


def example(env_file: Path) -> Path:
    """The example a host copies to make ``env_file`` (``.env`` from ``.env.example``)."""
    return env_file.with_name(env_file.name + ".example")


def handed(block: str) -> set[str]:
    """The secrets a container is handed: named in its environment or in its env files' examples."""
    names = set(re.findall(r"^      ([A-Z_]+):", block, flags=re.M))
    for env_file in env_files(block):
        text = example(env_file).read_text(encoding="utf-8")
        names |= set(re.findall(r"^([A-Z_]+)=", text, flags=re.M))
    return names & set(USERS)


def test_the_compose_file_lists_its_services() -> None:
    assert set(services()) == {
        "lama-bot",
        "rest-proxy",
        "postgres",
        "lama-shards-0-1",
        "lama-shards-2-3",
    }


def test_each_container_is_handed_only_the_secrets_it_uses() -> None:
    for name, block in services().items():
        for env_file in env_files(block):
            assert example(env_file).is_file(), (
                f"{name} reads {env_file.name}, which has no example"
            )
        extra = {secret for secret in handed(block) if name not in USERS[secret]}
        assert not extra, f"{name} is handed {sorted(extra)}, which it does not use"


def test_the_secret_files_stay_out_of_git_and_the_image() -> None:
    kept_out_of_git = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    kept_out_of_image = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    for block in services().values():
        for env_file in env_files(block):
            assert env_file.name in kept_out_of_git
            assert env_file.name in kept_out_of_image
