"""Random junk never escapes as anything but the engine's own message."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import CardError, parse_hand
from games.engine.score_line import score_request

CARDISH = st.text(alphabet="AJQKT0123456789CDHSjkx♣♦♥♠♡, \t-", max_size=60)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), CARDISH))
def test_the_parser_returns_cards_or_says_what_is_wrong(text):
    try:
        cards = parse_hand(text)
    except CardError as error:
        assert str(error)
    else:
        assert all(str(card) for card in cards)


@st.composite
def requests(draw):
    request = draw(
        st.dictionaries(
            st.sampled_from(["game", "hand", "round", "role", "winner_all_pure", "rules", "extra"]),
            json_values,
            max_size=6,
        )
    )
    if draw(st.booleans()):
        request["game"] = draw(st.sampled_from(["three-thirteen", "rummy13"]))
    if draw(st.booleans()):
        request["hand"] = draw(CARDISH)
    if draw(st.booleans()):
        request["round"] = draw(st.integers(-2, 13))
    if draw(st.booleans()):
        request["rules"] = draw(
            st.dictionaries(
                st.sampled_from(
                    [
                        "decks",
                        "aces",
                        "faces",
                        "jokers",
                        "all_wild_melds",
                        "wild_rank",
                        "all_joker_melds",
                        "max_count",
                        "bogus",
                    ]
                ),
                json_values,
                max_size=4,
            )
        )
    return request


@settings(max_examples=400, deadline=None)
@given(st.one_of(requests(), json_values))
def test_any_request_gets_an_answer_or_a_message(request):
    answer = score_request(request)
    json.dumps(answer)
    if answer["ok"]:
        assert isinstance(answer["points"], int) and answer["points"] >= 0
    else:
        assert isinstance(answer["error"], str) and answer["error"]
