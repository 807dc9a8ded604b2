"""The files in deploy/: the images compose runs are pinned to releases, and deploy/alerts.yml
is a Prometheus rule file that deploy/prometheus.yml loads, whose rules watch series the bot
serves (issue 42: nirn-proxy ran ``:latest``; the alarms were only comments), and the
systemd unit that publishes the slash commands runs as the bot's, with its settings.

No Prometheus here: the file is checked against Prometheus' documented rule-file format
(prometheus.io "Recording rules" → "Syntax of rule files", "Alerting rules"), the fields
its parser (``model/rulefmt``) takes and refuses, with unknown fields refused as
``promtool check rules`` refuses them.
"""

from __future__ import annotations

import configparser
import re
from pathlib import Path
from typing import Any

import yaml

from bot.metrics import BotMetrics

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"

GROUP_FIELDS = {"name", "interval", "query_offset", "limit", "rules", "labels"}
RULE_FIELDS = {"record", "alert", "expr", "for", "keep_firing_for", "labels", "annotations"}
#: Prometheus' duration: units from years to milliseconds, largest first, each at most once.
DURATION = re.compile(r"(\d+y)?(\d+w)?(\d+d)?(\d+h)?(\d+m)?(\d+s)?(\d+ms)?")
LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def load(name: str) -> Any:
    return yaml.safe_load((DEPLOY / name).read_text(encoding="utf-8"))


def rule_file_problems(content: Any) -> list[str]:
    """What Prometheus would refuse in a rule file's content, one line each."""
    if not isinstance(content, dict) or set(content) != {"groups"}:
        return ["a rule file holds exactly one field, groups"]
    problems: list[str] = []
    names: set[str] = set()
    for group in content["groups"]:
        name = group.get("name")
        if not isinstance(name, str) or not name:
            problems.append("a group without a name")
        elif name in names:
            problems.append(f"group {name} repeated in the same file")
        names.add(str(name))
        problems += [f"group {name}: unknown field {f}" for f in set(group) - GROUP_FIELDS]
        rules = group.get("rules")
        if not isinstance(rules, list) or not rules:
            problems.append(f"group {name}: no rules")
            continue
        for n, rule in enumerate(rules, start=1):
            problems += [f"{name} rule {n}: {p}" for p in rule_problems(rule)]
    return problems


def rule_problems(rule: dict[str, Any]) -> list[str]:
    problems = [f"unknown field {field}" for field in set(rule) - RULE_FIELDS]
    if ("alert" in rule) == ("record" in rule):
        problems.append("exactly one of alert and record must be set")
    if not isinstance(rule.get("expr"), str) or not rule["expr"].strip():
        problems.append("field expr must be set")
    for field in ("for", "keep_firing_for"):
        if field in rule and not DURATION.fullmatch(str(rule[field])):
            problems.append(f"{field} is not a duration: {rule[field]!r}")
    if "record" in rule and {"for", "keep_firing_for", "annotations"} & set(rule):
        problems.append("a recording rule takes no for, keep_firing_for or annotations")
    for field in ("labels", "annotations"):
        for key, value in (rule.get(field) or {}).items():
            if not LABEL_NAME.fullmatch(key) or key == "__name__":
                problems.append(f"invalid {field} name {key}")
            if not isinstance(value, str):
                problems.append(f"{field} {key} is not a string")
    return problems


def test_prometheus_loads_the_alert_rules() -> None:
    config = load("prometheus.yml")
    assert config["rule_files"] == ["alerts.yml"]  # relative to prometheus.yml's folder
    for name in config["rule_files"]:
        assert (DEPLOY / name).is_file()


def test_the_alert_rules_are_of_prometheus_rule_file_format() -> None:
    rules = load("alerts.yml")
    assert rule_file_problems(rules) == []
    alerts = [rule["alert"] for group in rules["groups"] for rule in group["rules"]]
    assert alerts == [
        "LamaBotDown",
        "LamaBotRateLimited",
        "LamaBotLoopLag",
        "LamaBotAISlow",
        "LamaBotStoreSlow",
        "LamaBotShardLatency",
    ]
    for group in rules["groups"]:
        for rule in group["rules"]:
            assert rule["labels"]["severity"] in ("page", "warning")
            assert rule["annotations"]["summary"] and rule["annotations"]["description"]


def test_the_check_finds_what_prometheus_refuses() -> None:
    assert rule_file_problems({"groups": [{"name": "g", "rules": [{"alert": "A"}]}]}) == [
        "g rule 1: field expr must be set"
    ]
    wrong = {"alert": "A", "record": "r", "expr": "up", "for": "2 minutes", "severity": "x"}
    assert sorted(rule_file_problems({"groups": [{"name": "g", "rules": [wrong]}]})) == [
        "g rule 1: a recording rule takes no for, keep_firing_for or annotations",
        "g rule 1: exactly one of alert and record must be set",
        "g rule 1: for is not a duration: '2 minutes'",
        "g rule 1: unknown field severity",
    ]
    assert rule_file_problems({"groups": [{"name": "g", "rules": []}], "rules": []}) == [
        "a rule file holds exactly one field, groups"
    ]


def test_every_series_the_rules_watch_is_one_the_bot_serves() -> None:
    metrics = BotMetrics()
    metrics.watch(statuses=lambda: ["running"], waiting=dict, latencies=lambda: [(0, 0.1)])
    served = set(re.findall(r"^(lama_\w+)", metrics.exposition().decode(), re.MULTILINE))
    watched = {
        series
        for group in load("alerts.yml")["groups"]
        for rule in group["rules"]
        for series in re.findall(r"\blama_\w+", rule["expr"])
    }
    assert len(watched) == 5
    assert watched <= served, watched - served


def test_compose_runs_released_images_only() -> None:
    """``:latest`` (or no tag) changes under a running bot at the next pull."""
    services = load("compose.yaml")["services"]
    images = {name: service["image"] for name, service in services.items()}
    assert images["rest-proxy"] == "ghcr.io/germanoeich/nirn-proxy:v1.3.3"
    for name, image in images.items():
        if image == "lama-bot":  # built here (build: ..)
            continue
        _, _, tag = image.rpartition(":")
        assert "/" not in tag and tag and tag != "latest", (name, image)


def unit(name: str) -> configparser.ConfigParser:
    parsed = configparser.ConfigParser(interpolation=None, strict=False)
    parsed.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys keep their case
    parsed.read(DEPLOY / name, encoding="utf-8")
    return parsed


def test_the_sync_unit_runs_sync_with_the_bots_settings() -> None:
    """A bare `python -m bot sync` can't read /etc/lama-bot/lama-bot.env (root's only):
    systemd reads it for lama-bot-sync.service as it does for the bot."""
    bot, sync = unit("lama-bot.service")["Service"], unit("lama-bot-sync.service")["Service"]
    for setting in ("User", "Group", "WorkingDirectory", "EnvironmentFile"):
        assert sync[setting] == bot[setting], setting
    assert bot["ExecStart"] == "/opt/lama-bot/.venv/bin/python -m bot"
    assert sync["ExecStart"] == bot["ExecStart"] + " sync"
    assert sync["Type"] == "oneshot"
