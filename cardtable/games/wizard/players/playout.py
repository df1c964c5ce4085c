"""A fast Wizard round simulator on bitmasks for the search bot's playouts, with a bid-aware card policy.

``Table`` holds what stays fixed during one decision (players, trump, bids made, the trick so far,
who played what this round, the fitted card values); ``play_round_from_card`` plays one sampled
deal to the end of the round and returns every seat's points. The playout policy, the same for
every seat, decides from the seat's hand, its bid and the cards still live (in anyone's hand),
not from the other hands:

- leading while short of the bid: a card nothing live can beat in its suit (top trump first),
  else a wizard, else a high side card, else the lowest; once the bid is made: the lowest side
  card (a jester if that card would win);
- following while short: the cheapest card that wins now, preferring one nothing live beats in
  its suit, unless the seat plays last (then simply the cheapest winner); no winner: a jester,
  else the cheapest card;
- following once the bid is made: the most dangerous card that loses now (jesters last);
  forced to win: the strongest card when last, else the weakest winner;
- with ``Table.cover`` (the search's ``cover`` option): a seat whose sure winners (wizards; with 2 or 3
  also the trumps nothing unseen beats in trump) cover the tricks it still needs plays its other cards
  as if the bid were made and keeps the sure ones for those tricks.

The simulated seats know which cards lie in the undealt stack (they count only the cards in hands
as live); a bid still hidden counts as 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.games.wizard import bid_table, rules
from cardtable.games.wizard.bid_model import category
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.players.compiled import FAST

_STRENGTH = rules.STRENGTH
_SUIT_MASK = rules.SUIT_MASK
_WIZARDS = rules.WIZARD_MASK
_JESTERS = rules.JESTER_MASK
_PLAIN = rules.ALL_MASK & ~rules.SPECIAL_MASK
_RANK = rules.RANK_OF
_SUIT = rules.SUIT_OF
_BIT = tuple(1 << c for c in range(rules.DECK_SIZE))
#: Cards of the same suit ranked above each card (0 for wizards and jesters).
_ABOVE = tuple(_SUIT_MASK[_SUIT[c]] & ~((1 << (c + 1)) - 1) if _SUIT[c] >= 0 else 0 for c in range(rules.DECK_SIZE))


def _top(mask: int) -> int:
    """The highest card id of a non-empty mask."""
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    """The lowest card id of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


class Table:
    """What one decision's playouts share: the round's fixed facts as the deciding seat sees them."""

    __slots__ = ("players", "size", "trump", "dealer", "bids", "tricks", "trick", "trick_leader", "played_by",
                 "values", "cover")

    def __init__(self, players: int, size: int, trump: int, dealer: int) -> None:
        self.players, self.size, self.trump, self.dealer = players, size, trump, dealer
        self.bids: list[int | None] = [None] * players
        self.tricks = [0] * players
        self.trick: list[int] = []
        self.trick_leader = (dealer + 1) % players
        self.played_by = [0] * players
        suit = None if trump < 0 else trump
        self.values = [bid_table.value(players, size, category(c, suit)) for c in range(rules.DECK_SIZE)]
        # The policy's sure-winner rule: 0 off, 1 wizards, 2 and the top trumps once no wizard is unseen,
        # 3 and the top trumps (nothing unseen above them in trump) even then.
        self.cover = 0

    @classmethod
    def from_observation(cls, obs: WizardObservation) -> Table:
        """The table as ``obs`` shows it (the trick history is rebuilt from ``played_cards``)."""
        p = obs.players
        t = cls(p, obs.round, -1 if obs.trump_suit is None else obs.trump_suit, obs.dealer)
        t.bids, t.tricks = list(obs.bids), list(obs.tricks)
        leader = (obs.dealer + 1) % p
        played = obs.played_cards
        suit = None if t.trump < 0 else t.trump
        for start in range(0, len(played), p):
            cards = played[start:start + p]
            for i, card in enumerate(cards):
                t.played_by[(leader + i) % p] |= _BIT[card]
            leader = (leader + rules.trick_winner(cards, suit)) % p
        for pc in obs.trick:
            t.played_by[pc.seat] |= _BIT[pc.card]
        t.trick = [pc.card for pc in obs.trick]
        t.trick_leader = obs.trick[0].seat if obs.trick else (obs.leader if obs.leader is not None else leader)
        return t

    def estimate(self, hand: int) -> float:
        """The fitted expected tricks of a whole hand (a bitmask)."""
        values = self.values
        return sum(values[c] for c in rules.hand_ids(hand))


def play_round_from_card(t: Table, hands: Sequence[int], me: int, card: int) -> list[int]:
    """Points per seat when ``me`` plays ``card`` now and every seat plays the rest of the round out (in C where
    the compiled ``_fast`` is built: the same points)."""
    fast = FAST.get()
    if fast is not None:
        out: list[int] = fast.play_round_from_card(t, hands, me, card)
        return out
    bids = [b if b is not None else 0 for b in t.bids]
    return points(bids, _play(t, list(hands), bids, list(t.tricks), list(t.trick), t.trick_leader, me, card))


def _play(t: Table, hands: list[int], bids: list[int], tricks: list[int], trick: list[int], leader: int,
          me: int, forced: int) -> list[int]:
    """Play the round out from the given trick and return the tricks per seat (``forced``: the card ``me`` plays
    first, -1 for none)."""
    p = t.players
    trump = t.trump
    by_lead = _STRENGTH[trump + 1]
    trump_mask = _SUIT_MASK[trump] if trump >= 0 else 0
    cover = t.cover
    live = 0
    for h in hands:
        live |= h
    lead = rules.lead_state(trick)
    while True:
        seat = (leader + len(trick)) % p
        while len(trick) < p:
            hand = hands[seat]
            if seat == me and forced >= 0:
                card, forced = forced, -1
            else:
                card = _choose(hand, live & ~hand, lead, trick, bids[seat] - tricks[seat], trump, trump_mask,
                               by_lead, len(trick) == p - 1, cover)
            bit = _BIT[card]
            hands[seat] = hand & ~bit
            live &= ~bit
            trick.append(card)
            if lead == -1 and card < 56:
                lead = 4 if card >= 52 else card // 13
            seat = (seat + 1) % p
        winner = (leader + rules.winning_position(trick, by_lead[lead + 1])) % p
        tricks[winner] += 1
        if not live:
            break
        leader, trick, lead = winner, [], -1
    return tricks


def points(bids: Sequence[int], tricks: Sequence[int]) -> list[int]:
    """Every seat's round points for its bid and the tricks it took."""
    return [20 + 10 * b if b == k else -10 * abs(k - b) for b, k in zip(bids, tricks)]


def _cost(card: int, trump: int) -> int:
    """How dangerous a card is to keep when ducking: wizards most, then trumps, then rank; jesters nothing."""
    if card >= 56:
        return 0
    if card >= 52:
        return 100
    return _RANK[card] + (40 if _SUIT[card] == trump else 0)


def _choose(hand: int, others: int, lead: int, trick: list[int], need: int, trump: int, trump_mask: int,
            by_lead: Sequence[Sequence[int]], last: bool, cover: int = 0) -> int:
    """The playout policy's card for a seat holding ``hand`` (see the module docstring)."""
    legal = hand
    if 0 <= lead < 4:
        follow = hand & _SUIT_MASK[lead]
        if follow:
            legal = follow | (hand & (_WIZARDS | _JESTERS))
    if not legal & (legal - 1):
        return _low(legal)
    if cover and need > 0:
        keep = hand & _WIZARDS
        if cover > 1 and trump >= 0 and (cover > 2 or not others & _WIZARDS):
            for c in rules.hand_ids(hand & trump_mask):
                if not others & _ABOVE[c]:
                    keep |= _BIT[c]
        if keep.bit_count() >= need:
            return _cover(legal, others, lead, trick, need, keep, trump, trump_mask, by_lead)
    if not trick:
        return _lead(legal, others, need, trump, trump_mask)
    if lead == -1:  # only jesters so far: any other card takes the lead and wins for now
        winners = legal & ~_JESTERS
        table = by_lead[0]
    else:
        table = by_lead[lead + 1]
        best = max(table[c] for c in trick)
        winners = 0
        for c in rules.hand_ids(legal):
            if table[c] > best:
                winners |= _BIT[c]
    if need > 0:
        if winners:
            plain = winners & ~_WIZARDS
            if not plain:
                return _low(winners)
            if last:
                return min(rules.hand_ids(plain), key=lambda c: (table[c], c))
            safe = [c for c in rules.hand_ids(plain) if not others & _ABOVE[c]]
            pool = safe or rules.hand_ids(plain)
            return min(pool, key=lambda c: (table[c], c))
        if legal & _JESTERS:
            return _low(legal & _JESTERS)
        return min(rules.hand_ids(legal), key=lambda c: (_cost(c, trump), c))
    losers = legal & ~winners
    if losers:
        return max(rules.hand_ids(losers), key=lambda c: (_cost(c, trump), -c))
    if last:
        return max(rules.hand_ids(winners), key=lambda c: (_cost(c, trump), c))
    return min(rules.hand_ids(winners), key=lambda c: (table[c], c))


def _cover(legal: int, others: int, lead: int, trick: list[int], need: int, keep: int, trump: int,
           trump_mask: int, by_lead: Sequence[Sequence[int]]) -> int:
    """The card of a seat whose sure winners (``keep``: wizards, top trumps) cover the tricks it still needs:
    lose with the other cards, keep the sure ones for the tricks (shedding a spare wizard on a trick another
    wizard already holds)."""
    wizards = keep.bit_count()
    plain = legal & ~keep
    if not trick:
        return _lead(plain, others, 0, trump, trump_mask) if plain else _low(legal)
    if any(52 <= c < 56 for c in trick):  # a wizard holds the trick: nothing wins it
        if wizards > need and legal & _WIZARDS:
            return _low(legal & _WIZARDS)
        pool = plain or legal
        return max(rules.hand_ids(pool), key=lambda c: (_cost(c, trump), -c))
    table = by_lead[0] if lead == -1 else by_lead[lead + 1]
    best = max(table[c] for c in trick)
    losers = [c for c in rules.hand_ids(plain) if table[c] <= best]
    if losers:
        return max(losers, key=lambda c: (_cost(c, trump), -c))
    if legal & keep:
        return _low(legal & keep)  # this trick is taken anyway: take it with a sure card
    return min(rules.hand_ids(legal), key=lambda c: (table[c], c))


def _lead(legal: int, others: int, need: int, trump: int, trump_mask: int) -> int:
    """The card a seat leads: a sure or high card while short of its bid, else a low side card."""
    side = legal & _PLAIN & ~trump_mask
    if need > 0:
        trumps = legal & trump_mask
        if trumps:
            top = _top(trumps)
            if not others & _ABOVE[top]:
                return top
        for suit in range(4):
            cards = side & _SUIT_MASK[suit]
            if cards:
                top = _top(cards)
                if not others & _ABOVE[top]:
                    return top
        if legal & _WIZARDS:
            return _low(legal & _WIZARDS)
        if side:
            high = max(rules.hand_ids(side), key=lambda c: (_RANK[c], c))
            if _RANK[high] >= 10:
                return high
            return min(rules.hand_ids(side), key=lambda c: (_RANK[c], c))
        if trumps:
            return _low(trumps)
        return _low(legal)
    if side:
        low = min(rules.hand_ids(side), key=lambda c: (_RANK[c], c))
        if legal & _JESTERS and not others & _ABOVE[low]:
            return _low(legal & _JESTERS)
        return low
    if legal & _JESTERS:
        return _low(legal & _JESTERS)
    if legal & trump_mask:
        return _low(legal & trump_mask)
    return _low(legal)


def policy_card(obs: WizardObservation, cover: int = 0) -> int:
    """The playout policy's card for the observing seat, from what it sees (live: every card it has not seen)."""
    me = obs.seat if obs.seat is not None else 0
    trump = -1 if obs.trump_suit is None else obs.trump_suit
    hand = rules.mask_of(obs.hand)
    trick = [pc.card for pc in obs.trick]
    seen = hand | rules.mask_of(obs.played_cards) | rules.mask_of(trick)
    if obs.trump_card is not None:
        seen |= _BIT[obs.trump_card]
    need = (obs.bids[me] or 0) - obs.tricks[me]
    return _choose(hand, rules.ALL_MASK & ~seen, rules.lead_state(trick), trick, need, trump,
                   _SUIT_MASK[trump] if trump >= 0 else 0, _STRENGTH[trump + 1], len(trick) == obs.players - 1, cover)
