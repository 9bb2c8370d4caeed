"""A night's story from its games' tales: who won and by how much, the round that decided it,
the best hand, the biggest penalty and why, the comeback. Plain data in, lines of words out;
the words are the rules' own (the engine's reasons under a hand, its names of outcomes)."""

from collections import Counter
from dataclasses import dataclass

from games import engine
from games.engine.cards import mark_cards

from .tales import RoundFacts, Tale


@dataclass(frozen=True)
class Moment:
    """One line of a story: what happened in words, and the round it happened in."""

    topic: str  # "winner", "decider", "best", "penalty", "comeback"
    text: str
    game_id: int
    round: int | None
    game_name: str = ""  # the game's name, heading its lines where a night has several


@dataclass(frozen=True)
class Feat:
    """A hand worth telling: who, in which round, and how it ranks against others (`key`)."""

    key: tuple
    player: int
    round: int
    points: int
    how: str  # "pure", "declared", "out", or the round's result where its game names one
    cards: int = 0  # cards melded, where going out with more is better
    against: int | None = None  # Gin: the player it was won from


@dataclass(frozen=True)
class Comeback:
    player: int
    behind: int  # points behind the leader
    round: int  # after which round


def joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _points(n: int) -> str:
    return f"{n} point{'' if abs(n) == 1 else 's'}"


def behind_after(tale: Tale, facts: RoundFacts, player: int) -> int:
    """How far `player` trails the leader after a round (0 when leading)."""
    totals = facts.running
    if tale.kind_def.highest_wins:
        return max(totals.values()) - totals[player]
    return totals[player] - min(totals.values())


def margin(tale: Tale) -> int:
    """How far the first place is ahead of the next."""
    firsts = [points for place, _, points in tale.places if place == 1]
    others = [points for place, _, points in tale.places if place != 1]
    return abs(firsts[0] - others[0]) if firsts and others else 0


def deciding_round(tale: Tale) -> RoundFacts | None:
    """The round after which the lead changed for the last time."""
    deciding, before = None, None
    for facts in tale.rounds:
        leaders = {player for player, place in facts.places.items() if place == 1}
        if leaders != before:
            deciding, before = facts, leaders
    return deciding


def comeback(tale: Tale) -> Comeback | None:
    """The furthest a player who finished first was behind after any round."""
    found = None
    for player in tale.winners:
        for facts in tale.rounds:
            if player in facts.running:
                behind = behind_after(tale, facts, player)
                if behind > 0 and (found is None or behind > found.behind):
                    found = Comeback(player, behind, facts.number)
    return found


def best_hand(tale: Tale, player: int | None = None) -> Feat | None:
    """The game's best hand: a declaration with all pure melds (Rummy: the one doubling the
    most), going out with the most cards melded (Three Thirteen, Five Crowns), or the round
    won the best way its game names (Big Gin first) for the most points. Only `player`'s
    hands, if given."""
    kind = tale.kind_def
    best = None
    for facts in tale.rounds:
        for hand in facts.hands:
            if player is not None and hand.player != player:
                continue
            feat = _feat(tale, kind, facts, hand)
            if feat is not None and (best is None or feat.key > best.key):
                best = feat
    return best


def _feat(tale, kind, facts, hand) -> Feat | None:
    number = facts.number
    if kind.settle_round is not None:  # points go to the round's winner
        if hand.points <= 0:
            return None
        loser = next((h.player for h in facts.hands if h.player != hand.player), None)
        rank = kind.result_merits.get(facts.result, 0)
        return Feat(
            (rank, hand.points, -number),
            hand.player,
            number,
            hand.points,
            facts.result,
            against=loser,
        )
    out = hand.outcome == engine.WENT_OUT
    if kind.final_count is not None:  # the others' counts follow the winner's hand
        if not out:
            return None
        counted = sum(h.points for h in facts.hands if h.player != hand.player)
        how = "pure" if hand.all_pure else "declared"
        return Feat((hand.all_pure, counted, -number), hand.player, number, counted, how)
    # The lowest hand: nothing left to count (going out, or every card melded after someone
    # else went out), the more cards the better; going out first among equals.
    if hand.points != 0 or hand.outcome not in (engine.WENT_OUT, engine.CARDS):
        return None
    size = kind.hand_size(number)
    return Feat(
        (size, out, -number), hand.player, number, 0, "out" if out else "melded", cards=size
    )


def feat_words(tale: Tale, feat: Feat, names: dict) -> str:
    kind = tale.kind_def
    who, where = names.get(feat.player, "?"), f"{kind.round_word} {feat.round}"
    if kind.settle_round is not None:
        label = _result_words(kind, feat.how)
        against = names.get(feat.against, "?")
        return f"{who}'s {label} against {against} in {where}: {_points(feat.points)}"
    if feat.how == "pure":
        return f"{who} declared in {where}: {kind.pure_remark} ({_points(feat.points)} counted)"
    if feat.how == "declared":
        return f"{who} declared in {where}; the others counted {_points(feat.points)}"
    wild = kind.wild_label(feat.round, tale.engine_rules)
    did = "went out" if feat.how == "out" else "counted nothing"
    return f"{who} {did} in {where} with all {feat.cards} cards melded" + (
        f" ({wild})" if wild else ""
    )


def _result_words(kind, result: str) -> str:
    """A round's result as said in a sentence: in lower case, but for a name of two words
    ("Big Gin"), which keeps its capitals."""
    label = kind.result_label(result) or kind.went_out_label
    return label if " " in label else label.lower()


def biggest_penalty(tale: Tale, player: int | None = None):
    """(round facts, hand) of the most points one hand cost its player; for games where the
    round's winner scores (Gin), the hand that gave most away. None if nothing cost points.
    Only `player`'s hands, if given."""
    kind = tale.kind_def
    found, most = None, 0
    for facts in tale.rounds:
        for hand in facts.hands:
            if player is not None and hand.player != player:
                continue
            if kind.settle_round is not None:
                cost = max((h.points for h in facts.hands if h.player != hand.player), default=0)
            else:
                cost = hand.points if hand.outcome != engine.WENT_OUT else 0
            if cost > most:
                found, most = (facts, hand), cost
    return found


def why(tale: Tale, facts: RoundFacts, hand, names: dict) -> list[str]:
    """The rules' reasons for a hand's points, as the round page gives them: its own count's
    reasons, then what the round did to it (doubled, capped), or the name of its outcome."""
    kind, rules = tale.kind_def, tale.engine_rules
    if hand.outcome == engine.POINTS:
        return ["entered as a number"]
    if hand.outcome != engine.CARDS:  # a fixed penalty: its name (a drop, a wrong declaration)
        return [engine.NAMES.get(hand.outcome, hand.outcome).lower()]
    try:
        count, reasons = kind.own_count(hand.outcome, hand.cards, facts.number, rules, hand.extra)
    except (engine.CardError, ValueError, KeyError):
        count, reasons = None, ()
    doubler = kind.doubler(
        (h.outcome, h.all_pure, names.get(h.player, "?")) for h in facts.hands if h is not hand
    )
    after = kind.hand_reasons(hand.outcome, count or 0, doubler, rules) if count else []
    # Why the hand counts, not what its melds did: a wild card standing in a meld ("QS stands
    # for 10C") counts nothing and is left out. Where what is left says nothing of the cards
    # that counted (only wild cards left over, counting 0), it starts with them.
    # Its cards marked: the line joins them with players' names, which may look like cards.
    counted = [mark_cards(reason) for reason in reasons if not _about_a_meld(reason)]
    if not any(" is wild but left over" not in reason for reason in counted):
        counted.insert(0, "cards left unmelded")
    return counted + after


def _about_a_meld(reason: str) -> bool:
    """A reason that tells what a laid meld's wild card does, not what the hand counts."""
    return " stands for " in reason or reason.endswith(": a meld of wild cards only")


def penalty_words(tale: Tale, facts: RoundFacts, hand, names: dict) -> str:
    kind = tale.kind_def
    who, where = names.get(hand.player, "?"), f"{kind.round_word} {facts.number}"
    if kind.settle_round is not None:
        winner = next(h for h in facts.hands if h.player != hand.player)
        label = _result_words(kind, facts.result)
        given = f"{names.get(winner.player, '?')} {_points(winner.points)}"
        return f"{who} gave {given} in {where} ({label})"
    reasons = "; ".join(why(tale, facts, hand, names))
    return f"{who}'s {_points(hand.points)} in {where}: {reasons}"


def game_story(tale: Tale, names: dict, game_name: str = "") -> list[Moment]:
    """The lines of one game's story, as far as it has been played (`game_name`: what the
    night calls the game, its kind's name by default)."""
    if not tale.rounds:
        return []
    kind = tale.kind_def
    line = _line_maker(tale, game_name or kind.name)
    lines = []
    firsts = [names.get(p, "?") for p in tale.winners]
    last = tale.rounds[-1].number
    if tale.finished:
        top = next(points for place, _, points in tale.places if place == 1)
        if len(firsts) > 1:
            text = f"{joined(firsts)} shared the win in {kind.name} with {_points(top)}"
        else:
            seconds = [names.get(p, "?") for place, p, _ in tale.places if place == 2]
            text = f"{firsts[0]} won {kind.name} with {_points(top)}"
            if seconds:
                text += f", {margin(tale)} ahead of {joined(seconds)}"
        lines.append(line("winner", text, last))
    else:
        verb = "lead" if len(firsts) > 1 else "leads"
        lines.append(
            line(
                "winner",
                f"{joined(firsts)} {verb} {kind.name} by "
                f"{_points(margin(tale))} after {kind.round_word} {last}",
                last,
            )
        )
    deciding = deciding_round(tale)
    # Told only where the last lead is the final one (a game's bonuses may reorder the end).
    if deciding is not None and tale.finished and len(tale.rounds) > 1:
        leaders = {player for player, place in deciding.places.items() if place == 1}
        deciding = deciding if leaders == set(tale.winners) else None
    if deciding is not None and tale.finished and len(tale.rounds) > 1:
        if deciding is tale.rounds[0]:
            text = f"{joined(firsts)} led from {kind.round_word} {deciding.number} to the end"
        else:
            took = "drew level for the last time" if len(firsts) > 1 else "took the lead for good"
            where = f"{kind.round_word.capitalize()} {deciding.number}"
            text = f"{where} decided it: {joined(firsts)} {took}"
        lines.append(line("decider", text, deciding.number))
    feat = best_hand(tale)
    if feat is not None:
        lines.append(line("best", "Best hand: " + feat_words(tale, feat, names), feat.round))
    penalty = biggest_penalty(tale)
    if penalty is not None:
        facts, hand = penalty
        text = "Biggest penalty: " + penalty_words(tale, facts, hand, names)
        lines.append(line("penalty", text, facts.number))
    back = comeback(tale)
    if back is not None and tale.finished:
        ended = "won" if len(tale.winners) == 1 else "shared the win"
        text = (
            f"Comeback: {names.get(back.player, '?')} was {_points(back.behind)} behind after "
            f"{kind.round_word} {back.round} and {ended}"
        )
        lines.append(line("comeback", text, back.round))
    return lines


def _line_maker(tale: Tale, game_name: str):
    def line(topic, text, number):
        return Moment(topic, text + ".", tale.game_id, number, game_name)

    return line


def numbered_names(games) -> dict[int, str]:
    """What a night calls each of its games (`games`: (id, its kind's name, whether it counts)
    in the order they were started): the kind's name, numbered among the games that count (those
    played or still in play) where the night has that kind more than once ("13-card Rummy,
    game 2"), so that two games' lines, standings and links are told apart. A game started by
    mistake and finished with no hand does not count, and keeps its kind's name."""
    games = list(games)
    kinds = Counter(name for _, name, counts in games if counts)
    seen: Counter = Counter()
    named = {}
    for pk, name, counts in games:
        if counts and kinds[name] > 1:
            seen[name] += 1
            name = f"{name}, game {seen[name]}"
        named[pk] = name
    return named


def game_names(tales: list[Tale]) -> dict[int, str]:
    """`numbered_names` of a night's tales, in the order they were started."""
    return numbered_names(
        (tale.game_id, tale.kind_def.name, bool(tale.rounds) or not tale.finished) for tale in tales
    )


def night_story(tales: list[Tale], names: dict) -> list[Moment]:
    """Every game's story, in the order the games were started."""
    called = game_names(tales)
    return [
        moment for tale in tales for moment in game_story(tale, names, called.get(tale.game_id, ""))
    ]
