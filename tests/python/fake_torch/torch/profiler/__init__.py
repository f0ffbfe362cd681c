def kineto_available():
    import torch

    torch.CALLS.append(("kineto_available",))
    return True
