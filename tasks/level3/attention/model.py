import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """softmax(Q K^T / sqrt(D)) V over (batch, head): KernelBench's level1/97_ScaledDotProductAttention.py,
    whose forward is F.scaled_dot_product_attention(Q, K, V) (no mask, no dropout, scale 1/sqrt(D)).
    Q, K, V: B x Hh x S x D."""

    def __init__(self):
        super().__init__()

    def forward(self, Q, K, V):
        att = torch.softmax(Q @ K.transpose(-2, -1) / (Q.shape[-1] ** 0.5), dim=-1)
        return att @ V


def get_inputs():
    B, Hh, S, D = 32, 32, 512, 1024  # KernelBench's batch_size, num_heads, sequence_length, embedding_dimension
    return [torch.randn(B, Hh, S, D) * 1.5, torch.randn(B, Hh, S, D) * 1.5, torch.randn(B, Hh, S, D)]


def get_init_inputs():
    return []
