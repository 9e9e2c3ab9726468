"""prionic golden model (written from docs/timing.md and docs/frame-path.md only)."""

from model.admit import Admission
from model.classifier import RULE_NONE, Classification, Classifier, ClassifyEngine, Rule
from model.config import FrameOutcome, ModelConfig
from model.moderation import Moderation, ModerationConfig, Prescaler
from model.nic import CompletionError, PrionicModel
from model.parser import Parser, ParseResult
from model.regs import Registers

__all__ = [
    "Admission",
    "Classification",
    "Classifier",
    "ClassifyEngine",
    "CompletionError",
    "FrameOutcome",
    "ModelConfig",
    "Moderation",
    "ModerationConfig",
    "ParseResult",
    "Parser",
    "Prescaler",
    "PrionicModel",
    "RULE_NONE",
    "Registers",
    "Rule",
]
