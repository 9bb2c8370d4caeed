"""Who a phone may see as the saver of a hand, and whether it may undo a save: `games.access`
decides both. And when a hand was saved, as the round page prints it."""

from django import template
from django.template.defaultfilters import pluralize
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.timezone import template_localtime

from games import access

from .cards import card_text, melds_drawn, reasons_list
from .links import url_of

register = template.Library()


@register.filter
def saver(record, request) -> str:
    """Who saved a hand or made a change, as this phone may see it (`access.shown_saver`)."""
    return access.shown_saver(request, record)


@register.filter
def undoable_by(last_save, request) -> bool:
    """This phone may undo the round's last save (`access.may_undo`)."""
    return access.may_undo(request, last_save)


@register.filter(expects_localtime=True)
def clock(value) -> str:
    """A time of day as `time:"H:i"` prints it ("09:05", in the current time zone; "" for
    none), without the cost of Django's format machinery (~150 calls each time, on every round
    page, summary and change drawn)."""
    if not value:
        return ""
    return f"{value.hour:02d}:{value.minute:02d}"


@register.tag
def kept(parser, token):
    """`{% kept key %}...{% endkept %}`: what it encloses, also kept under `key` in the
    context's `kept` dict where the context has one: a save's drawing keeps each hand's line
    and cards as drawn, and the saving phone's answer is made from them (games.live.changes)."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError(f"{bits[0]} takes one key")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(nodelist, parser.compile_filter(bits[1]))


class KeptNode(template.Node):
    def __init__(self, nodelist, key):
        self.nodelist, self.key = nodelist, key

    def render(self, context):
        output = self.nodelist.render(context)
        kept = context.get("kept")
        if kept is not None:
            kept[self.key.resolve(context)] = output
        return output


# A hand's line and cards: on the round page once for each hand, and in every change drawn for
# the phones that follow (a save's, an undo's), so made here rather than by the template engine
# (about a thousand interpreter calls a hand each time, an eighth of a save's; issue 45).


@register.simple_tag(takes_context=True)
def hand_line(context, panel, oob=False):
    """A hand's line in its panel's summary: how it ended, its points and who saved it, or that
    it is not entered yet (`oob`: swapped in out of band where a save's answer sends it)."""
    hand = panel.hand
    if hand:
        said = format_html(
            '<span class="saved">{} · <strong>{}</strong> point{}</span> '
            '<span class="saved-by">Saved by {}</span>',
            panel.label,
            hand.points,
            pluralize(hand.points),
            access.shown_saver(context["request"], hand),
        )
    else:
        said = mark_safe('<span class="unsaved">not entered</span>')
    return format_html(
        '<span class="hand-line" id="hand-line-{}"{} data-live data-live-key="{}">{}</span>',
        panel.seat.pk,
        _OOB if oob else "",
        panel.live_key,
        said,
    )


@register.simple_tag
def hand_shown(panel, oob=False):
    """A saved hand's melds, leftover and why it counts what it counts, under its panel while
    the panel is closed (empty while it is open or nothing is saved)."""
    parts = [
        format_html(
            '<div class="shown-hand" id="hand-shown-{}"{} data-live data-live-key="{}">',
            panel.seat.pk,
            _OOB if oob else "",
            panel.live_key,
        )
    ]
    hand = panel.hand
    if hand and not panel.open:
        wild_rank = panel.wild_rank
        if hand.cards:
            parts.append(melds_drawn(hand.melds, hand.leftover, wild_rank))
        parts.append(reasons_list(panel.reasons, wild_rank))
    parts.append("</div>")
    return mark_safe("".join(parts))  # noqa: S308 - each part is escaped or built by format_html


_OOB = mark_safe(' hx-swap-oob="true"')


@register.simple_tag(takes_context=True)
def round_status(context):
    """The round's summary (`round.html`'s round-status): its notes, what is still to enter or
    that it is complete, its report (Gin), each hand's points, the last undo and the Undo
    button. Drawn for every summary asked after a save and in every change drawn for the phones
    that follow, so made here rather than by the template engine (issue 45)."""
    game, kind, round_ = context["game"], context["kind"], context["round"]
    request = context.get("request")
    problems, hands = context.get("problems"), context.get("hands")
    last_undo, undone_here = context.get("last_undo"), context.get("undone_here")
    word = kind.round_word
    parts = [
        format_html(
            '<section id="round-status" data-live class="round-status" hx-get="{}" '
            'hx-trigger="round-changed from:body" hx-swap="outerHTML" aria-live="polite"{}>',
            url_of("round", game.pk, round_.number),
            "" if game.finished_at else mark_safe(" data-keep-awake"),
        )
    ]
    parts += [format_html('<p class="notice">{}</p>', note) for note in context.get("notes") or ()]
    if problems and game.finished_at:
        # Finished early: what the finish page said becomes of this round, never "still to enter".
        if hands:
            one = len(hands) == 1
            said = format_html(
                "The game was finished before this {} was complete: the hand{} entered count{} "
                "in the final totals, the others count nothing.",
                word,
                "" if one else "s",
                "s" if one else "",
            )
        else:
            said = format_html(
                "The game was finished before this {} was played: it is left out of the game.", word
            )
        parts.append(format_html('<p class="notice left-out">{}</p>', said))
    elif problems:
        todo = "".join(format_html("<li>{}.</li>", capfirst(problem)) for problem in problems)
        parts.append(f'<ul class="todo">{todo}</ul>')
    else:
        parts.append(format_html('<p class="done">✓ {} complete.</p>', capfirst(word)))
        parts.append(
            format_html(
                '<p><a class="button primary wide" href="{}">{}</a></p>',
                game.get_absolute_url(),
                "See the final standings"
                if game.finished_at
                else format_html("Score table and next {}", word),
            )
        )
    if context.get("report"):
        parts.append(
            context.template.engine.get_template("games/round_report.html").render(context)
        )
    if hands:
        points = "".join(
            format_html(
                "<li><span>{}</span> <strong>{}</strong></li>", hand.seat.player.name, hand.points
            )
            for hand in hands
        )
        parts.append(f'<ul class="round-points">{points}</ul>')
    if last_undo:
        parts.append(_undo_note(request, last_undo, undone_here))
    last_save = context.get("last_save")
    if last_save and access.may_undo(request, last_save):
        # Right after an undo, the save before it is a second tap away: never undone by a
        # double tap.
        parts.append(_undo_form(context, game, round_, last_save, bool(last_undo)))
    parts.append("</section>")
    return mark_safe("".join(parts))  # noqa: S308 - each part is escaped or built by format_html


def _undo_note(request, undo, here) -> str:
    """The round's last change, an undo: who undid which hand, and what it is now."""
    name = undo.seat.player.name
    if here:
        who = "You"
    else:
        who = access.shown_saver(request, undo)
        who = capfirst(who) if who in ("a member", "someone") else who
    if undo.removed_hand:
        now = "not entered now"
    else:
        now = format_html("back to {} ({})", undo.new_summary, undo.new_points)
    back = (
        format_html(
            ' What was undone is back in <a href="#hand-{}">{}\'s panel</a>, not saved, to correct '
            "and save.",
            undo.seat_id,
            name,
        )
        if here
        else ""
    )
    return format_html(
        '<p class="notice undone-note" id="undone-note" data-note="undo-{}"{}>↶ {} undid the '
        "last save of {}'s hand: {}.{}</p>",
        undo.pk,
        mark_safe(" data-own") if here else "",
        who,
        name,
        now,
        back,
    )


def _undo_form(context, game, round_, save, after_undo: bool) -> str:
    """The Undo button of the round's last save, with what it puts back and when it was saved
    (behind a second tap right after an undo)."""
    url = url_of("undo_save", game.pk, round_.number)
    name = save.seat.player.name
    if save.before:
        back = format_html(
            "Puts {}'s hand back to {} ({})", name, save.old_summary, save.old_points
        )
    else:
        back = format_html("Takes {}'s hand out again (not entered)", name)
    form = format_html(
        '<form method="post" action="{}" class="undo" hx-post="{}" hx-target="#round-status" '
        'hx-swap="outerHTML">{}<input type="hidden" name="change" value="{}">'
        '<button type="submit" class="button wide">↶ Undo last save: {}\'s hand</button>'
        '<p class="help">{}, as it was before {} saved it at {}.</p></form>',
        url,
        url,
        CsrfTokenNode().render(context),
        save.pk,
        name,
        back,
        access.shown_saver(context.get("request"), save),
        clock(template_localtime(save.changed_at, context.use_tz)),
    )
    if after_undo:
        return format_html(
            '<details class="undo-earlier"><summary>Undo an earlier save too</summary>{}</details>',
            form,
        )
    return form


@register.simple_tag(takes_context=True)
def round_changes(context):
    """The round's latest changes, latest first (`round.html`'s round-changes): when, who, which
    hand and from what to what, and a link to them all where more were made. In every change
    drawn for the phones that follow, so made here rather than by the template engine."""
    request, changes = context.get("request"), context.get("changes") or ()
    wild_rank = context["round"].wild_rank
    items = []
    for change in changes:
        if change.removed_hand:
            now = mark_safe("not entered")
        else:
            now = format_html(
                "{} ({})", card_text(change.new_summary, wild_rank), change.new_points
            )
        if change.old_summary:
            now = format_html(
                "{} ({}) → {}", card_text(change.old_summary, wild_rank), change.old_points, now
            )
        items.append(
            format_html(
                '<li{}><span class="when">{}</span> {} {} <strong>{}</strong>: {}{}</li>',
                mark_safe(' class="undone"') if change.undone_at else "",
                clock(template_localtime(change.changed_at, context.use_tz)),
                access.shown_saver(request, change),
                "undid the last save of" if change.undo else "saved",
                change.seat.player.name,
                now,
                mark_safe(" <em>(undone)</em>") if change.undone_at else "",
            )
        )
    count = context.get("changes_count") or 0
    if count > len(changes):
        items.append(
            format_html(
                '<li class="more-changes"><a href="?changes=all#round-changes">All {} changes</a>'
                "</li>",
                count,
            )
        )
    return mark_safe(f'<ul id="round-changes-list">{"".join(items)}</ul>')  # noqa: S308 - built by format_html


# The round page's other live parts, drawn again in every change sent to the phones that
# follow (`round.html`'s live-change): made here for the same reason.


@register.simple_tag(takes_context=True)
def round_nav(context):
    """The way to the score table and to the rounds before and after."""
    game, round_ = context["game"], context["round"]
    links = [format_html('<a href="{}">← Score table</a>', game.get_absolute_url())]
    if round_.number > 1:
        links.append(
            format_html('<a href="{}">‹ Previous</a>', url_of("round", game.pk, round_.number - 1))
        )
    if not context.get("is_last_known"):
        links.append(
            format_html('<a href="{}">Next ›</a>', url_of("round", game.pk, round_.number + 1))
        )
    return mark_safe(  # noqa: S308 - each link built by format_html
        f'<nav class="crumbs" aria-label="Game" id="round-nav" data-live>{" ".join(links)}</nav>'
    )


@register.simple_tag(takes_context=True)
def round_notice(context):
    """That the game is finished (and where to reopen it, for those who may): a game finished
    or reopened on another phone changes what the page offers, so the page is drawn again."""
    game = context["game"]
    said = ""
    if game.finished_at:
        may = context.get("may")
        reopen = (
            format_html(
                '<a href="{}">Reopen it</a> from the score table to change them.',
                game.get_absolute_url(),
            )
            if may and may.group_pages
            else ""
        )
        said = format_html(
            '<p class="notice">This game is finished: its hands can be read but not changed. {}'
            "</p>",
            reopen,
        )
    return format_html(
        '<div id="round-notice" data-live data-live-key="{}" data-live-reload>{}</div>',
        "finished" if game.finished_at else "open",
        said,
    )


@register.simple_tag(takes_context=True)
def round_next_game(context):
    """The night's next game, once one starts after this finished one."""
    game, next_game = context["game"], context.get("next_game")
    said = ""
    if next_game:
        said = format_html(
            '<p class="notice">The table has gone on: <a href="{}">{} has started</a>.</p>',
            next_game.get_absolute_url(),
            next_game.kind_def.name,
        )
    return format_html(
        '<div id="round-next-game" data-live data-live-key="{}"{} role="status">{}</div>',
        next_game.pk if next_game else "none",
        mark_safe(' class="pinned-notice"') if next_game and game.finished_at else "",
        said,
    )


@register.simple_tag(takes_context=True)
def round_history(context):
    """The round's changes, on demand: opened, they are asked again, so never out of date; live,
    they appear with the round's first save and count each one on every phone."""
    game, round_ = context["game"], context["round"]
    count = context.get("changes_count", "")  # printed as the template prints it, even missing
    return format_html(
        '<div id="round-history" data-live data-live-key="{}"{}>'
        '<details class="card-box history" id="round-changes"{} hx-get="{}" data-opened-event '
        'hx-trigger="details-opened" hx-target="#round-changes-list" hx-swap="outerHTML">'
        '<summary>Changes (<span id="round-changes-count" data-live data-live-key="{}">{}</span>)'
        "</summary>{}</details></div>",
        "some" if count else "none",
        "" if count else mark_safe(" hidden"),
        mark_safe(" open") if context.get("all_changes") else "",
        url_of("round", game.pk, round_.number),
        count,
        count,
        round_changes(context),
    )
