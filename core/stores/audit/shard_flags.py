"""The audit's shard from `--shard i/N`, `--shards N` and a Kubernetes Job's completion index."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from core.errors import CodedError, ErrorCode

__all__ = ["JOB_INDEX_ENV", "ShardFlagError", "parse_shard", "parse_shards", "resolve_shard"]

# Kubernetes sets it in every pod of an Indexed Job (completionMode: Indexed): 0 to N - 1.
JOB_INDEX_ENV = "JOB_COMPLETION_INDEX"


class ShardFlagError(CodedError, ValueError):
    """The shard flags and the environment disagree, or name no shard: a usage error."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BAD_SHARD, message)


def parse_shard(text: str) -> tuple[int, int]:
    """`"i/N"` -> `(i, N)`, with 0 <= i < N (argparse type).

    Example:
        >>> parse_shard("1/4")
        (1, 4)
    """
    try:
        index, shards = (int(part) for part in text.split("/"))
    except ValueError:
        index, shards = -1, 0
    if not 0 <= index < shards:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a shard: write i/N with 0 <= i < N, e.g. 0/4 ... 3/4"
        )
    return index, shards


def parse_shards(text: str) -> int:
    """`"4"` -> 4: how many shards, at least 1 (argparse type).

    Example:
        >>> parse_shards("4")
        4
    """
    try:
        shards = int(text)
    except ValueError:
        shards = 0
    if shards < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of shards: write 1 or more")
    return shards


def resolve_shard(
    shard: tuple[int, int] | None, shards: int | None, environ: Mapping[str, str]
) -> tuple[int, int]:
    """The `(i, N)` to audit: `--shard i/N` as given; `--shards N` with i from
    JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's pod index); neither: the whole store.

    Raises:
        ShardFlagError: the flags disagree with each other or with JOB_COMPLETION_INDEX,
            the index is not a number or not below N, or `--shards N` has no index.

    Example:
        >>> resolve_shard(None, 3, {"JOB_COMPLETION_INDEX": "2"}), resolve_shard((1, 4), None, {})
        ((2, 3), (1, 4))
        >>> resolve_shard(None, 3, {})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        core.stores.audit.shard_flags.ShardFlagError: [bad_shard] --shards 3 needs ...
    """
    if shard is not None:
        return _given(shard, shards, _job_index(environ))
    if shards is None:
        return 0, 1
    job_index = _job_index(environ)
    if job_index is None:
        raise ShardFlagError(
            f"--shards {shards} needs this process's index: pass --shard i/{shards} instead, "
            f"or run it in a Kubernetes Indexed Job, which sets {JOB_INDEX_ENV}"
        )
    if job_index >= shards:
        raise ShardFlagError(
            f"{JOB_INDEX_ENV}={job_index} is out of range for --shards {shards} (0 to "
            f"{shards - 1}): give the Job `completions: {shards}`, the N of --shards"
        )
    return job_index, shards


def _given(shard: tuple[int, int], shards: int | None, job_index: int | None) -> tuple[int, int]:
    """`--shard i/N` as given, once `--shards` and the Job's index agree with it."""
    index, count = shard
    if shards is not None and shards != count:
        raise ShardFlagError(
            f"--shard {index}/{count} and --shards {shards} disagree: pass one of them"
        )
    if job_index is not None and job_index != index:
        raise ShardFlagError(
            f"--shard {index}/{count} but {JOB_INDEX_ENV}={job_index}: in an Indexed Job "
            f"pass --shards {count} alone (each pod audits its own index), or unset "
            f"{JOB_INDEX_ENV}"
        )
    return shard


def _job_index(environ: Mapping[str, str]) -> int | None:
    text = environ.get(JOB_INDEX_ENV)
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()):
        raise ShardFlagError(
            f"{JOB_INDEX_ENV}={text!r} is not a shard index: Kubernetes sets it to 0, 1, ... "
            f"in an Indexed Job; unset it here, or pass --shard i/N"
        )
    return int(text)
