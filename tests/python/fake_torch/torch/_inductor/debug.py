"""torch._inductor.debug: the in-memory kernel information registry."""
_kernel_information_jsons = {}


def get_kernel_information_jsons():
    import torch

    torch.CALLS.append(("get_kernel_information_jsons",))
    return _kernel_information_jsons
