"""The card model: decks, ids, notation."""

from __future__ import annotations

import pytest

from cardtable.cards import (
    DECKS,
    KAISER_32,
    RUSSIAN_36,
    SPANISH_40,
    STANDARD_52,
    WIZARD_60,
    Card,
    Rank,
    Suit,
    parse_card,
)


def test_deck_sizes() -> None:
    assert [len(d) for d in (RUSSIAN_36, STANDARD_52, WIZARD_60, SPANISH_40, KAISER_32)] == [36, 52, 60, 40, 32]


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_every_card_round_trips_through_its_id_and_text(deck) -> None:  # type: ignore[no-untyped-def]
    for card_id, card in enumerate(deck.cards):
        assert deck.id(card) == card_id
        assert deck.parse(card.text()) == card_id
        assert deck.text(card_id) == card.text()


def test_russian_deck_order_is_spades_hearts_clubs_diamonds_six_to_ace() -> None:
    assert RUSSIAN_36.format(range(9)) == "6♠,7♠,8♠,9♠,10♠,J♠,Q♠,K♠,A♠"
    assert [RUSSIAN_36.card(9 * i).suit for i in range(4)] == [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS]


def test_wizard_ids_follow_the_published_table() -> None:
    for suit_index, suit in enumerate((Suit.RED, Suit.YELLOW, Suit.GREEN, Suit.BLUE)):
        for number in range(1, 14):
            card = WIZARD_60.card(suit_index * 13 + number - 1)
            assert (card.suit, card.rank.number) == (suit, number)
    assert all(WIZARD_60.card(i).rank is Rank.WIZARD for i in range(52, 56))
    assert all(WIZARD_60.card(i).rank is Rank.JESTER for i in range(56, 60))
    assert WIZARD_60.card(19).words() == "7 of yellow"


def test_standard_ranks_exclude_wizard_and_jester() -> None:
    for deck in (RUSSIAN_36, STANDARD_52, SPANISH_40, KAISER_32):
        assert not any(card.rank.is_special for card in deck.cards)


def test_kaiser_deck_has_the_special_cards_and_no_other_low_cards() -> None:
    texts = {card.text() for card in KAISER_32.cards}
    assert {"5♥", "3♠", "7♣", "7♦"} <= texts
    assert not {"7♠", "7♥", "6♣"} & texts


def test_spanish_deck_has_sota_caballo_rey_and_no_eight_or_nine() -> None:
    ranks = {card.rank for card in SPANISH_40.cards}
    assert {Rank.SOTA, Rank.CABALLO, Rank.REY} <= ranks
    assert not {Rank.EIGHT, Rank.NINE} & ranks
    assert SPANISH_40.card(SPANISH_40.parse("Ro")).words() == "rey de oros"
    assert SPANISH_40.card(SPANISH_40.parse("1c")).words() == "as de copas"
    assert SPANISH_40.card(SPANISH_40.parse("7e")).words() == "siete de espadas"


def test_parsing_accepts_ascii_suits_and_rejects_nonsense() -> None:
    assert STANDARD_52.parse("10s") == STANDARD_52.parse("10♠")
    assert parse_card("Q♥") == Card(Rank.QUEEN, Suit.HEARTS)
    with pytest.raises(ValueError, match="not a card"):
        STANDARD_52.parse("11♠")
    with pytest.raises(ValueError):
        parse_card("zz")


def test_bitmasks_round_trip_card_ids() -> None:
    from cardtable.cards import cards_of, mask_of

    assert mask_of([0, 5, 59]) == 1 | 1 << 5 | 1 << 59
    assert cards_of(mask_of([59, 0, 5])) == [0, 5, 59]
    assert cards_of(0) == [] and mask_of([]) == 0
