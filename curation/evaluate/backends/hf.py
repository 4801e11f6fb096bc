"""transformers in this process: batched generation with left padding, on the GPU in bf16 when there is
one, else on the CPU in fp32.

With a thinking budget, generation runs in two phases (budget forcing): the model thinks for at most
``thinking_budget`` new tokens; every sequence that has not finished by then gets ``</think>`` appended
(unless it already closed its thinking) and continues for ``max_new_tokens`` more to give its answer.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from curation.core.errors import InputError
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
        try:
            import torch
        except ImportError as exc:
            raise InputError(f"--backend hf needs torch and transformers: pip install -e '.[eval]' ({exc})") from exc

        self._torch = torch
        self.model_name = model
        self.settings = settings
        self.batch_size = batch_size
        self.think_end = think_end
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        default = torch.bfloat16 if self.device.startswith("cuda") else torch.float32
        self._torch_dtype = getattr(torch, dtype) if dtype else default
        self.dtype = str(self._torch_dtype).removeprefix("torch.")
        self._loaded: tuple[Any, Any] | None = None

    def _load(self) -> tuple[Any, Any]:
        """Loads on first use, so a run answered wholly from the cache never loads the weights."""
        if self._loaded is None:
            try:
                from transformers import AutoModelForCausalLM, AutoTokenizer
            except ImportError as exc:
                raise InputError(f"--backend hf needs transformers: pip install -e '.[eval]' ({exc})") from exc
            try:
                tokenizer = AutoTokenizer.from_pretrained(self.model_name)
                model = AutoModelForCausalLM.from_pretrained(self.model_name, dtype=self._torch_dtype)
            except (OSError, ValueError) as exc:
                raise InputError(f"model {self.model_name!r} could not be loaded with transformers: {exc}") from exc
            model = model.to(self.device).eval()
            tokenizer.padding_side = "left"
            if tokenizer.pad_token is None:
                tokenizer.pad_token = tokenizer.eos_token
            eos = model.generation_config.eos_token_id
            if eos is None:
                eos = tokenizer.eos_token_id
            self._eos_ids = set(eos if isinstance(eos, list) else [eos])
            self._loaded = (model, tokenizer)
        return self._loaded

    @property
    def model(self) -> Any:
        return self._load()[0]

    @property
    def tokenizer(self) -> Any:
        return self._load()[1]

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
            prompts = [texts[i] + continuations[n] for n, i in enumerate(pending)]
            second = self._generate(prompts, self.settings.max_new_tokens)
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
