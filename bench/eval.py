"""Items per second of the hf evaluation backend, at several batch sizes measured in the same run.

CPU (default): a small randomly initialised Llama. ``--gpu``: a randomly initialised 1B-class Llama
(Llama-3.2-1B's shape: 16 layers, hidden 2048, 32 heads, 8 KV heads, vocab 128256) in bf16 on CUDA.
Both are built from a config, so nothing is downloaded and the speed is honest for that size; the output
text is random. Prompts are the real zero-shot CoT prompts over synthetic Korean exam items.

    python bench/eval.py                      # CPU, small model
    python bench/eval.py --gpu                # GPU, 1B-class model, bf16
    python bench/eval.py --gpu --batch-sizes 1,32,128 --max-new-tokens 256
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from curation.core.item import Item  # noqa: E402
from curation.evaluate.backends import GenerationSettings, Request  # noqa: E402
from curation.evaluate.backends.hf import HFBackend  # noqa: E402
from curation.evaluate.prompts import PromptSpec  # noqa: E402
from curation.evaluate.random_model import SHAPES, build_random_lm  # noqa: E402


def synthetic_items(n: int) -> list[Item]:
    stem = (
        "甲은 乙 소유의 X 토지를 매수하는 계약을 체결하고 계약금을 지급하였으나, 중도금 지급 전 乙이 X 토지를 丙에게 "
        "이중으로 매도하고 소유권이전등기를 마쳐 주었다. 이에 관한 설명으로 옳은 것은? (다툼이 있으면 판례에 따름)"
    )
    options = [
        "甲은 乙에게 채무불이행을 이유로 계약을 해제하고 손해배상을 청구할 수 있다.",
        "丙이 乙의 배임행위에 적극 가담한 경우 乙과 丙 사이의 매매계약은 반사회적 법률행위로서 무효이다.",
        "甲은 丙을 상대로 직접 소유권이전등기의 말소를 청구할 수 있다.",
        "乙은 계약금의 배액을 상환하고 언제든지 계약을 해제할 수 있다.",
        "甲의 乙에 대한 소유권이전등기청구권은 이행불능으로 소멸한다.",
    ]
    return [Item(id=f"bench-{k:05d}", question=f"{stem} ({k})", options=tuple(options)) for k in range(n)]


def build_model(folder: Path, shape: str, device: str, dtype: str) -> Path:
    item = synthetic_items(1)[0]
    # A small vocabulary keeps the prompt near the length real tokenizers give it (~0.7 tokens per char)
    # instead of memorising it in a few tokens.
    corpus = [PromptSpec("ko").render(item), PromptSpec("en").render(item)]
    return build_random_lm(folder, shape, corpus, vocab_size=500, device=device, dtype=dtype)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gpu", action="store_true", help="1B-class model, bf16, on CUDA")
    parser.add_argument("--shape", choices=sorted(SHAPES), help="model shape (default: 1b with --gpu, else small)")
    parser.add_argument("--dtype", help="default: bfloat16 with --gpu, else float32")
    parser.add_argument("--batch-sizes", default=None, help="comma-separated (default 1,4,16 CPU; 1,32,128 GPU)")
    parser.add_argument("--batches", type=int, default=2, help="timed batches per batch size (after a warm-up)")
    parser.add_argument("--max-new-tokens", type=int, default=None, help="default 32 CPU, 256 GPU")
    parser.add_argument("--prompt", choices=("ko", "en"), default="ko")
    parser.add_argument("--threads", type=int, help="torch CPU threads (1 is far faster on a loaded machine)")
    args = parser.parse_args()

    import torch
    import transformers

    if args.threads:
        torch.set_num_threads(args.threads)
    if args.gpu and not torch.cuda.is_available():
        sys.exit("--gpu: torch sees no CUDA device")
    device, dtype, shape = ("cuda", "bfloat16", "1b") if args.gpu else ("cpu", "float32", "small")
    shape, dtype = args.shape or shape, args.dtype or dtype
    batch_sizes = [int(b) for b in (args.batch_sizes or ("1,32,128" if args.gpu else "1,4,16")).split(",")]
    max_new = args.max_new_tokens or (256 if args.gpu else 32)
    settings = GenerationSettings(max_new_tokens=max_new)
    spec = PromptSpec(args.prompt)

    with tempfile.TemporaryDirectory(prefix="bench-eval-") as tmp:
        started = time.perf_counter()
        folder = build_model(Path(tmp) / "model", shape, device, dtype)
        built = time.perf_counter() - started
        rows = []
        for batch in batch_sizes:
            backend = HFBackend(str(folder), settings, batch_size=batch, device=device, dtype=dtype)
            params = sum(p.numel() for p in backend.model.parameters())
            sample = backend.render(Request("x", tuple(spec.messages(synthetic_items(1)[0]))))
            prompt_tokens, prompt_chars = len(backend.tokenizer(sample)["input_ids"]), len(sample)
            warm = [Request(item.id, tuple(spec.messages(item))) for item in synthetic_items(batch)]
            list(backend.generate(warm))
            items = synthetic_items(batch * args.batches)
            requests = [Request(item.id, tuple(spec.messages(item))) for item in items]
            if device == "cuda":
                torch.cuda.synchronize()
            t0 = time.perf_counter()
            done = sum(1 for _ in backend.generate(requests))
            if device == "cuda":
                torch.cuda.synchronize()
            elapsed = time.perf_counter() - t0
            memory = torch.cuda.max_memory_allocated() / 2**30 if device == "cuda" else None
            rows.append((batch, done, elapsed, done / elapsed, done * max_new / elapsed, memory))
            del backend
            if device == "cuda":
                torch.cuda.empty_cache()
                torch.cuda.reset_peak_memory_stats()

    cpu = f"{os.cpu_count()} CPUs, torch threads {torch.get_num_threads()}"
    gpu = torch.cuda.get_device_name(0) if device == "cuda" else cpu
    print(f"hf backend throughput: model {shape} ({params / 1e6:.1f} M parameters, random weights), {dtype} on {gpu}")
    print(f"torch {torch.__version__}, transformers {transformers.__version__}; prompt {spec.id}, "
          f"{prompt_tokens} prompt tokens/item ({prompt_chars} chars), max_new_tokens {max_new} (greedy), model built in {built:.1f} s")
    print()
    print(f"{'batch':>6} {'items':>6} {'seconds':>9} {'items/s':>9} {'max tok/s':>10} {'peak GiB':>9}")
    for batch, done, elapsed, per_s, tokens, memory in rows:
        mem = f"{memory:9.1f}" if memory is not None else f"{'-':>9}"
        print(f"{batch:>6} {done:>6} {elapsed:>9.2f} {per_s:>9.2f} {tokens:>10.0f} {mem}")
    print("\nmax tok/s assumes every item generated max_new_tokens (random weights rarely emit EOS).")


if __name__ == "__main__":
    main()
