"""The evaluation stage: run models on a release with the paper's protocol and judge them by the
official pass rules.

``dataset`` reads a release folder, ``prompts`` and ``extract`` are the zero-shot CoT protocol,
``backends`` talk to models (transformers in process, or any OpenAI-compatible server), ``cache`` keeps
every response, ``run`` wires one evaluation, ``score`` and ``report`` judge and write it,
``diagnostics`` compares several runs to find suspect items, ``leaderboard`` publishes many runs.
"""
