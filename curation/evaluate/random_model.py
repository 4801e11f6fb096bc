"""Randomly initialised causal LMs built from a config: nothing is downloaded.

They answer at random, so they measure speed honestly (bench/eval.py) and exercise the whole evaluation
path on machines without a model (the tests, ``make run``'s sample evaluation).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

CHAT_TEMPLATE = (
    "{% for message in messages %}<|{{ message['role'] }}|>\n{{ message['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)

SHAPES = {
    "tiny": dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                 num_key_value_heads=4, vocab_size=None),
    "small": dict(hidden_size=256, intermediate_size=688, num_hidden_layers=4, num_attention_heads=4,
                  num_key_value_heads=4, vocab_size=None),
    "1b": dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
               num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=True),
}

DEFAULT_CORPUS = (
    "다음 객관식 문제를 단계적으로 생각하여 풀이한 뒤 답하세요. 정답: A",
    "회계학 세법개론 공법 민사법 형사법 민법 헌법 관세법개론 무역영어 선택지 내용입니다.",
    "Answer the following multiple choice question by thinking step by step. Answer: B",
    "A) B) C) D) E) 문제 선택지 정답은 C입니다. </think>",
)


def build_random_lm(folder: str | Path, shape: str = "tiny", corpus: Sequence[str] = DEFAULT_CORPUS,
                    vocab_size: int = 400, device: str = "cpu", dtype: str = "float32", seed: int = 0) -> Path:
    """Save a byte-level BPE tokenizer trained on ``corpus`` and a Llama of ``shape`` with random weights."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["<s>", "</s>", "<pad>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(list(corpus), trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, bos_token="<s>", eos_token="</s>", pad_token="<pad>")
    fast.chat_template = CHAT_TEMPLATE
    spec = dict(SHAPES[shape])
    spec["vocab_size"] = spec["vocab_size"] or len(fast)
    config = LlamaConfig(**spec, max_position_embeddings=8192, bos_token_id=fast.bos_token_id,
                         eos_token_id=fast.eos_token_id, pad_token_id=fast.pad_token_id)
    torch.manual_seed(seed)
    with torch.device(device):
        model = LlamaForCausalLM(config).to(getattr(torch, dtype))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder
