// Cards drawn with CSS and inline SVG: rank, suit symbol, suit colour. No images, no fonts to download.
// Each card's accessible name is its `words` in the page's language ("7 of red", "rey of oros", "rey de oros").

import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";

// Suit shapes in a 100×100 box, drawn here so that no font needs the suit glyphs.
const SHAPES = {
  hearts: [["path", { d: "M50 88 C22 64 6 48 6 30 A22 22 0 0 1 50 20 A22 22 0 0 1 94 30 C94 48 78 64 50 88 Z" }]],
  diamonds: [["path", { d: "M50 4 L86 50 L50 96 L14 50 Z" }]],
  spades: [["path", { d: "M50 6 C78 34 94 46 94 62 A21 21 0 0 1 56 72 L64 94 L36 94 L44 72 A21 21 0 0 1 6 62 C6 46 22 34 50 6 Z" }]],
  clubs: [
    ["circle", { cx: 50, cy: 28, r: 19 }], ["circle", { cx: 27, cy: 58, r: 19 }],
    ["circle", { cx: 73, cy: 58, r: 19 }], ["path", { d: "M45 50 L36 94 L64 94 L55 50 Z" }],
  ],
  // Wizard colours: a round gem in the suit's colour (a diamond shape would read as the French suit).
  gem: [["circle", { cx: 50, cy: 50, r: 44 }], ["circle", { cx: 50, cy: 50, r: 30, fill: "#ffffff", opacity: "0.35" }], ["circle", { cx: 50, cy: 50, r: 16 }]],
  // Spanish suits: coin, cup, sword, club.
  oros: [["circle", { cx: 50, cy: 50, r: 42 }], ["circle", { cx: 50, cy: 50, r: 24, fill: "#fff6c8" }], ["circle", { cx: 50, cy: 50, r: 10 }]],
  copas: [["path", { d: "M14 10 L86 10 C86 42 70 56 56 58 L56 78 L74 90 L26 90 L44 78 L44 58 C30 56 14 42 14 10 Z" }]],
  espadas: [["path", { d: "M47 4 L53 4 L56 66 L44 66 Z" }], ["path", { d: "M24 64 L76 64 L76 72 L24 72 Z" }], ["path", { d: "M45 72 L55 72 L55 90 L45 90 Z" }], ["circle", { cx: 50, cy: 93, r: 6 }]],
  bastos: [["path", { d: "M38 94 L30 20 C30 4 60 2 64 16 L70 94 Z" }], ["circle", { cx: 40, cy: 40, r: 5, fill: "#f4e3c1" }], ["circle", { cx: 56, cy: 60, r: 5, fill: "#f4e3c1" }]],
  wizard: [["path", { d: "M50 4 L61 38 L96 38 L68 59 L79 94 L50 72 L21 94 L32 59 L4 38 L39 38 Z" }]],
  jester: [["path", { d: "M10 70 L20 20 L38 52 L50 12 L62 52 L80 20 L90 70 Z" }], ["path", { d: "M12 76 L88 76 L88 90 L12 90 Z" }]],
};

const WIZARD_COLOURS = new Set(["red", "yellow", "green", "blue"]);
const SUIT_CLASS = {
  hearts: "s-red", diamonds: "s-red", spades: "s-black", clubs: "s-black",
  red: "w-red", yellow: "w-yellow", green: "w-green", blue: "w-blue",
  oros: "e-oros", copas: "e-copas", espadas: "e-espadas", bastos: "e-bastos",
};

/** An SVG suit symbol (aria-hidden: the card's own label says the suit). */
export function suitIcon(suit, rank) {
  const shape = suit ? (WIZARD_COLOURS.has(suit) ? "gem" : suit) : rank;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "suit-icon");
  for (const [tag, attrs] of SHAPES[shape] || [["circle", { cx: 50, cy: 50, r: 30 }]]) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    svg.append(el);
  }
  return svg;
}

/** The rank as printed in the card's corner ("10", "Q", "7", "S" for sota, "W" for a wizard). */
export function rankMark(card) {
  if (!card.suit) return card.rank === "wizard" ? "W" : card.rank === "jester" ? "J" : card.text;
  if (WIZARD_COLOURS.has(card.suit)) return card.text.slice(1);
  return card.text.slice(0, -1);
}

/** The name printed on a card with no suit: its words in the page's language without the copy's number
 * ("маг 1" → "маг", "jester 3" → "jester"). */
export function specialName(card) {
  return String(card.words || card.rank).replace(/\s*\d+$/, "");
}

/** The CSS colour class of a card's suit. */
export function suitClass(card) {
  if (!card.suit) return card.rank === "wizard" ? "w-wizard" : "w-jester";
  return SUIT_CLASS[card.suit] || "s-black";
}

/** The catalogue lookup: card id -> {id, text, words, suit, rank}. */
export class Catalogue {
  constructor(cards) {
    this.byId = new Map((cards || []).map((c) => [c.id, c]));
    this.byText = new Map((cards || []).map((c) => [c.text, c]));
  }

  /** The catalogue entry of a card id (a placeholder for an unknown id). */
  get(id) {
    return this.byId.get(id) || { id, text: `#${id}`, words: `card ${id}`, suit: null, rank: String(id) };
  }

  /** A card in words ("queen of hearts"). */
  words(id) {
    return this.get(id).words;
  }

  /** A card written in the deck's notation ("Ro", "10♠") in words; the notation itself for no such card. */
  wordsOfText(text) {
    const card = this.byText.get(text);
    return card ? card.words : text;
  }

  /** Several cards in words, comma-separated. */
  wordsList(ids) {
    return ids.map((id) => this.words(id)).join(", ");
  }

  /** Whether `id` is a card of this deck. */
  has(id) {
    return this.byId.has(id);
  }
}

/** The ways to order a hand: as dealt (the game's order), by suit then rank, by rank then suit. */
export const HAND_ORDERS = ["dealt", "suit", "rank"];

/** The hand's cards in the chosen order; suits and ranks go as the deck lists them (a card with no suit,
 * such as a wizard or jester, after the suits, in deck order). `catalogue.byId` lists the deck in order. */
export function sortHand(ids, catalogue, order) {
  if (order !== "suit" && order !== "rank") return [...ids];
  const suits = new Map();
  const ranks = new Map();
  for (const card of catalogue.byId.values()) {
    if (!suits.has(card.suit)) suits.set(card.suit, card.suit ? suits.size : 1000 + suits.size);
    if (!ranks.has(card.rank)) ranks.set(card.rank, ranks.size);
  }
  const key = (id) => {
    const card = catalogue.get(id);
    const suit = suits.has(card.suit) ? suits.get(card.suit) : 2000;
    const rank = ranks.has(card.rank) ? ranks.get(card.rank) : 2000;
    if (!card.suit) return [suit + rank, 0];
    return order === "suit" ? [suit, rank] : [rank, suit];
  };
  return [...ids].sort((a, b) => {
    const [x1, x2] = key(a);
    const [y1, y2] = key(b);
    return x1 - y1 || x2 - y2 || a - b;
  });
}

/**
 * A card face. `opts.onclick` makes it a button (a legal card); `opts.disabled` greys it out;
 * `opts.selected` marks it chosen; `opts.note` adds a small caption (who played it).
 */
export function cardFace(catalogue, id, opts = {}) {
  const card = catalogue.get(id);
  const mark = rankMark(card);
  const classes = ["card", suitClass(card)];
  if (opts.legal) classes.push("legal");
  if (opts.selected) classes.push("selected");
  if (opts.small) classes.push("small");
  if (opts.highlight) classes.push("highlight");
  const inner = [
    h("span", { class: "corner top", "aria-hidden": "true" }, h("span", { class: "rank" }, mark), suitIcon(card.suit, card.rank)),
    h("span", { class: "pip", "aria-hidden": "true" }, suitIcon(card.suit, card.rank)),
  ];
  // Wizards and jesters carry their name at the bottom instead of a second corner.
  if (card.suit) inner.push(h("span", { class: "corner bottom", "aria-hidden": "true" }, h("span", { class: "rank" }, mark)));
  else inner.push(h("span", { class: "special-name", "aria-hidden": "true" }, specialName(card)));
  const label = opts.label || card.words;
  // The name is the card in words; what clicking it does ("Play 7 of red") is its description.
  const attrs = { class: classes.join(" "), "aria-label": label, "aria-description": opts.description, title: opts.description || label, dataset: { card: String(id) } };
  let el;
  if (opts.onclick || opts.button) {
    el = h("button", { ...attrs, type: "button", onclick: opts.onclick, disabled: opts.disabled || undefined, "aria-pressed": opts.selectable ? String(!!opts.selected) : undefined }, inner);
  } else {
    el = h("span", { ...attrs, role: "img" }, inner);
  }
  if (opts.note) return h("figure", { class: "played" }, el, h("figcaption", {}, opts.note));
  return el;
}

/** A face-down card (someone's hidden hand, the stock). */
export function cardBack(label = "face-down card", small = false) {
  return h("span", { class: `card back${small ? " small" : ""}`, role: "img", "aria-label": label, title: label });
}

/** A row of card faces. */
export function cardRow(catalogue, ids, opts = {}) {
  return h("div", { class: "card-row" }, ids.map((id) => cardFace(catalogue, id, { small: opts.small })));
}
