"""Stackline example: one pre-norm transformer block trained with torch.compile.

example.pt.trace.json (next to this file) is a synthetic profile of train()
below, laid out as torch.profiler writes it for one A100. Its kernel
information has the shape that Inductor's provenance tracking records with
TORCH_COMPILE_DEBUG_EXTEND=1. See README.md.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from torch._inductor.profiler import inductor_trace_handler
from torch.profiler import ProfilerActivity, profile, schedule


@triton.jit
def rms_scale_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    # A hand-written Triton kernel: scales each input row to unit RMS.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    rms = tl.sqrt(tl.sum(x * x, axis=0) / n_cols + 1e-6)
    tl.store(out_ptr + row * n_cols + cols, x / rms, mask=mask)


def rms_scale(x):
    out = torch.empty_like(x)
    rows = x.numel() // x.shape[-1]
    rms_scale_kernel[(rows,)](x, out, x.shape[-1], BLOCK=triton.next_power_of_2(x.shape[-1]))
    return out


class Block(nn.Module):
    def __init__(self, dim=256, heads=4, hidden=1024):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def attention(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q = q * (C // self.heads) ** -0.5
        scores = q @ k.transpose(-2, -1)
        probs = scores.softmax(dim=-1)  # B x heads x T x T floats: memory-bound
        out = (probs @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(out)

    def forward(self, x):
        x = rms_scale(x)
        x = x + self.attention(self.norm1(x))
        h = F.gelu(self.fc1(self.norm2(x)))
        return x + self.fc2(h)


def train(steps=4, batch=2, seq=2048, dim=256):
    torch.manual_seed(0)
    torch.set_float32_matmul_precision("high")
    model = Block(dim).cuda()
    compiled = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=True)
    inputs = torch.randn(steps, batch, seq, dim).pin_memory()
    targets = torch.randn(steps, batch, seq, dim).pin_memory()
    with profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
        schedule=schedule(wait=1, warmup=1, active=2),
        on_trace_ready=inductor_trace_handler("traces", worker_name="example"),
    ) as prof:
        for step in range(steps):
            x = inputs[step].to("cuda", non_blocking=True)
            y = targets[step].to("cuda", non_blocking=True)
            loss = F.mse_loss(compiled(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            if step % 2:
                print(f"step {step}: loss {loss.item():.4f}")
            prof.step()


if __name__ == "__main__":
    train()
