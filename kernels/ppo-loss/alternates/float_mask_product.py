"""PPO loss with a float 0/1 mask multiplied in and one division by the token count (junk is finite)."""

from __future__ import annotations

import torch
from torch import Tensor


def ppo_loss(logprobs, old_logprobs, advantages, returns, values, old_values, entropy, mask,
             clip_eps=0.2, vf_coef=0.5, ent_coef=0.01, vf_clip=None):
    w = mask.to(logprobs.dtype)
    w = w / w.sum()                       # weights of one token mean over the batch
    adv = advantages.detach()
    log_ratio = logprobs - old_logprobs.detach()
    ratio = log_ratio.exp()
    pg = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps))
    policy_loss = (pg * w).sum()
    ret = returns.detach()
    vf = (values - ret).pow(2)
    if vf_clip is not None:
        base = old_values.detach()
        vf = torch.max(vf, (base + torch.clamp(values - base, -vf_clip, vf_clip) - ret).pow(2))
    value_loss = (vf * w).sum() * 0.5
    entropy_mean = (entropy * w).sum()
    return policy_loss + vf_coef * value_loss - ent_coef * entropy_mean, policy_loss, value_loss, entropy_mean
