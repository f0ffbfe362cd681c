"""torch._inductor.config: only the setting the handler reads and enable_provenance() sets."""


class trace:  # noqa: N801 (a config namespace, as in torch)
    provenance_tracking_to_timeline = False
