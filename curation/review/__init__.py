"""Human review of items in Label Studio: server, client adapter, plan, push, pull, adjudicate, apply, status."""
