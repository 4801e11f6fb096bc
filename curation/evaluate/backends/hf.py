"""transformers in this process: batched generation with left padding, on the GPU in bf16 when there is
one, else on the CPU in fp32.

With a thinking budget, generation runs in two phases (budget forcing): the model thinks for at most
``thinking_budget`` new tokens; every sequence that has not finished by then gets ``</think>`` appended
(unless it already closed its thinking) and continues for ``max_new_tokens`` more to give its answer.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from curation.errors import InputError
from curation.evaluate.backends import GenerationSettings, Request, Response


class HFBackend:
    name = "hf"

    def __init__(
        self,
        model: str,
        settings: GenerationSettings,
        *,
        batch_size: int = 8,
        device: str | None = None,
        dtype: str | None = None,
        think_end: str = "</think>",
    ):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self._torch = torch
        self.settings = settings
        self.batch_size = batch_size
        self.think_end = think_end
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        torch_dtype = getattr(torch, dtype) if dtype else (torch.bfloat16 if self.device.startswith("cuda") else torch.float32)
        self.dtype = str(torch_dtype).removeprefix("torch.")
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(model)
            self.model = AutoModelForCausalLM.from_pretrained(model, dtype=torch_dtype).to(self.device).eval()
        except (OSError, ValueError) as exc:
            raise InputError(f"model {model!r} could not be loaded with transformers: {exc}") from exc
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        eos = self.model.generation_config.eos_token_id
        if eos is None:
            eos = self.tokenizer.eos_token_id
        self._eos_ids = set(eos if isinstance(eos, list) else [eos])

    def render(self, request: Request) -> str:
        messages = list(request.messages)
        if self.tokenizer.chat_template:
            return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return "\n\n".join(message["content"] for message in messages) + "\n\n"

    def generate(self, requests: Sequence[Request]) -> Iterator[tuple[Request, Response]]:
        self._torch.manual_seed(self.settings.seed)
        prompts = [(request, self.render(request)) for request in requests]
        # Similar lengths together: less padding per batch.
        prompts.sort(key=lambda pair: len(pair[1]))
        for start in range(0, len(prompts), self.batch_size):
            batch = prompts[start : start + self.batch_size]
            texts = [text for _, text in batch]
            if self.settings.thinking_budget is None:
                outputs = self._generate(texts, self.settings.max_new_tokens)
            else:
                outputs = self._generate_with_budget(texts)
            for (request, _), (text, finished) in zip(batch, outputs):
                yield request, Response(text=text, finish_reason="stop" if finished else "length")

    def _generate_with_budget(self, texts: list[str]) -> list[tuple[str, bool]]:
        first = self._generate(texts, self.settings.thinking_budget or 0)
        results: list[tuple[str, bool]] = list(first)
        pending = [i for i, (_, finished) in enumerate(first) if not finished]
        if pending:
            continuations = []
            for i in pending:
                thought = first[i][0]
                closing = "" if self.think_end in thought else f"\n{self.think_end}\n\n"
                continuations.append(thought + closing)
            second = self._generate([texts[i] + continuations[n] for n, i in enumerate(pending)], self.settings.max_new_tokens)
            for n, i in enumerate(pending):
                results[i] = (continuations[n] + second[n][0], second[n][1])
        return results

    def _generate(self, texts: list[str], max_new_tokens: int) -> list[tuple[str, bool]]:
        """Each text's continuation and whether it ended with an end-of-sequence token."""
        torch = self._torch
        encoded = self.tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False).to(self.device)
        sampling = (
            {"do_sample": True, "temperature": self.settings.temperature, "top_p": self.settings.top_p}
            if not self.settings.greedy
            else {"do_sample": False, "temperature": None, "top_p": None, "top_k": None}
        )
        with torch.inference_mode():
            output = self.model.generate(
                **encoded,
                max_new_tokens=max_new_tokens,
                pad_token_id=self.tokenizer.pad_token_id,
                **sampling,
            )
        new_tokens = output[:, encoded["input_ids"].shape[1] :].tolist()
        results = []
        for ids in new_tokens:
            end = next((k for k, token in enumerate(ids) if token in self._eos_ids), None)
            kept = ids if end is None else ids[:end]
            results.append((self.tokenizer.decode(kept, skip_special_tokens=True), end is not None))
        return results
