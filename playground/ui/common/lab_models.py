"""A session's MLM lab model in the other tabs' model menus (fill-mask, attention), for that session only.

The lab keeps each session's fine-tuned model under a random token held in a `gr.State` (server-side, never
sent to the browser). `LabMenus` owns that State, so the tabs built before the lab can take it as an input:
their menus gain the choice "Your lab model (<base>, <n> steps)" after a training, and their events hand the
backend this session's models from the app Runtime (`mlm_lab.sessions.session_models`): {LAB_MODEL_KEY: model},
which the backend uses past the allow-list (the Runtime's `with_session`) and never
caches. Nothing else can name the model: the API has no session, and a link's value must be one of a menu's
build-time choices (`ui.share.decode`), which never include it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

import gradio as gr

from playground.mlm_lab import sessions
from playground.mlm_lab.runner import drop_session
from playground.models import SessionModels
from playground.registry import LAB_MODEL_KEY
from playground.ui.common.widgets import label_in, model_choices, refuse
from playground.serve import runtime as app_runtime
from playground.ui.common.i18n import t


def _end_session(token: str | None) -> None:
    drop_session(app_runtime.APP, token)


def menu_choices(kinds: Iterable[str], lang: str, token: str | None) -> list[tuple[str, str]]:
    """The available models of these kinds, and this session's lab model last when it has one of these kinds."""
    kinds = tuple(kinds)
    choices = model_choices(kinds, lang)
    found = sessions.lab_model(app_runtime.APP, token)
    if found is not None and found.model.spec.kind in kinds:
        label = t("mlm_lab.session_choice", lang, base=label_in(found.base_label, lang), steps=found.steps)
        choices.append((label, LAB_MODEL_KEY))
    return choices


def session_for(token: str | None, keys: Iterable[Any], lang: str) -> SessionModels:
    """The session models a run may use: {} unless it asks for the lab model, which must still be in memory.

    `token` None means no session (an API call): the key is then left to the allow-list, which refuses it as
    an unknown model.
    """
    if token is None or LAB_MODEL_KEY not in [k for k in keys if isinstance(k, str)]:
        return {}
    found = sessions.session_models(app_runtime.APP, token)
    if not found:
        raise refuse(t("mlm_lab.session_gone", lang))
    return found


def _let_lab_key_through(component: Any) -> None:
    """Let the lab key past the menu's own choice check, so the event's `session_for` answers it.

    After a restart a page still shows "Your lab model" ticked, but its new server session has the build-time
    choices, which never include the key: Gradio would refuse with its raw "Value ... is not in the list of
    choices". Every other value is still checked by the component itself.
    """
    check = getattr(component, "preprocess", None)
    if check is None:  # not a component (a stand-in in a test)
        return

    def preprocess(payload: Any) -> Any:
        if isinstance(payload, list) and LAB_MODEL_KEY in payload:
            where = payload.index(LAB_MODEL_KEY)
            rest = check([v for v in payload if v != LAB_MODEL_KEY])
            return [*rest[:where], LAB_MODEL_KEY, *rest[where:]]
        return LAB_MODEL_KEY if payload == LAB_MODEL_KEY else check(payload)

    component.preprocess = preprocess


def _keep(value: Any, keys: set[str], fallback: Any) -> Any:
    """A menu's value after its choices changed: what is still offered (a gone lab model is dropped)."""
    if isinstance(value, list):
        return [v for v in value if v in keys]
    return value if value in keys else fallback


@dataclass
class LabMenus:
    """The session's lab token and the model menus that offer its model (see the module docstring)."""

    token: Any  # gr.State: the lab's token for this session; its delete_callback drops the model with the session
    menus: list[tuple[Any, tuple[str, ...], Any]] = field(default_factory=list)  # (component, kinds, fallback value)
    events: list[Any] = field(default_factory=list)  # events after which this session's model may have changed

    @classmethod
    def create(cls) -> LabMenus:
        # "" rather than None: a page event always has a session (None is the API's "no session"), so a page whose
        # session is gone (a server restart) asking for the lab model is told to train it again, not "unknown model".
        return cls(gr.State("", delete_callback=_end_session))

    def menu(self, component: Any, kinds: Iterable[str], fallback: Any = None) -> Any:
        """Register a model menu: its choices follow the language and this session's model (not the Localizer)."""
        self.menus.append((component, tuple(kinds), fallback))
        _let_lab_key_through(component)
        return component

    def changed_by(self, event: Any) -> None:
        """After `event` (a training), the menus are redrawn with the session's model as it is now."""
        self.events.append(event)

    def refresh(self, token: str | None, lang: str, *values: Any) -> list[Any]:
        updates = []
        for (_, kinds, fallback), value in zip(self.menus, values):
            choices = menu_choices(kinds, lang, token)
            updates.append(gr.update(choices=choices, value=_keep(value, {k for _, k in choices}, fallback)))
        return updates

    def wire(self, ui: Any) -> None:
        """Connect the menus (call once every tab is built): redrawn after a training and on a language switch."""
        if not self.menus:
            return
        components = [c for c, _, _ in self.menus]
        inputs = [self.token, ui.lang, *components]
        for event in self.events:
            event.then(self.refresh, inputs, components, api_visibility="private", queue=False)
        ui.on_lang(self.refresh, inputs, components)  # with the header: the menus sit in two tabs


def model_menu(ui: Any, component: Any, kinds: Iterable[str], fallback: Any = None, **props: Any) -> Any:
    """Register a model menu of a tab: with the session's lab model when the app has a lab (`ui.lab`), else
    relabelled by the Localizer alone (a tab built on its own, in tests)."""
    kinds = tuple(kinds)
    if getattr(ui, "lab", None) is None:
        return ui.loc.add(component, choices=lambda lang: model_choices(kinds, lang), **props)
    ui.loc.add(component, **props)
    return ui.lab.menu(component, kinds, fallback)


def token_of(ui: Any) -> list[Any]:
    """The lab token as an event input ([] when the app has no lab): append it to a tab's inputs."""
    lab = getattr(ui, "lab", None)
    return [] if lab is None else [lab.token]
