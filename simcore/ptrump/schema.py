"""The P-style trump mahjong scenario schema: every rule option of the spec, with type, range,
default and tag (spec: shared/rules/ptrump.md, sections 1-10).

Tags follow the spec: ``R`` stated by the source, ``I`` our reading (an option), ``X``
reconstructed (editable). The defaults are the spec's; ``scenarios/ptrump_2p.yaml`` spells every
one out with its tag.

The spec names its options flat (``riichi_min_stock``); a scenario groups them
(``riichi.min_stock``). :data:`SPEC_OPTIONS` maps every spec name to its key path, so a reader
of the spec finds each option.
"""

from __future__ import annotations

from simcore.family.scenario import schema as schema_common
from simcore.family.scenario.schema import Field

GAME = "ptrump"   # what a scenario's `game:` must say

# Enumerations: the code the kernels see is the index in the tuple (simcore.ptrump.rules_array).
ONE_COLOUR = ("suit", "red_black", "numbers", "off")
FIRST_DEALER = ("random", 0, 1, 2)                # a seat, or drawn per match
NEXT_DEALER = ("rotate", "winner")
OPEN_KAN_FROM = ("any", "previous_only")
NUKIDORA_MODE = ("replace", "instead_of_discard")
ROB_NUKIDORA = ("kokushi_only", "any_joker_wait")
MULTIPLE_RON = ("head_bump", "all")
NOTEN_DECLARATION = ("auto",)
NEGATIVE_WIN = ("floor_zero", "literal", "forbidden")
FURITEN = ("full", "discard_only", "none")
DEPOSITS = ("carry", "lost_at_draw")
RIICHI_MIN_STOCK = ("players", "one")
IPPATSU_WINDOW = ("next_discard",)
OPEN_RIICHI = ("off", "on")
RENHOU_WINDOW = ("own_first_draw", "first_go_around")
NAGASHI = ("at_win", "at_draw", "off")
URA_JOKER = ("riichi_only", "any_win")
PON_PENALTY = ("win_only", "always")
TARGET_TIE = ("shared", "play_on")
BEGINNER_YAKU = ("all",)


# Field: one leaf of the schema; its kinds here: "int", "bool", "str", "enum", "players", "game".
_int = schema_common.int_field
_bool = schema_common.bool_field


def _enum(default, choices, doc, tag="I"):
    return Field("enum", default, doc, tag, choices=tuple(choices))


def _item(points, doc, tag="R", enabled=True, **extra):
    """A scored item (yaku, additive bonus, deduction, yakuman): on/off and its points."""
    d = {"enabled": _bool(enabled, f"{doc}: counted at all", tag),
         "points": _int(points, f"{doc}: points", tag, min=0, max=1000)}
    d.update(extra)
    return d


# The 1-point yaku (spec §8), in breakdown order (simcore.ptrump.rules_array.SLOTS).
YAKU = {
    "tsumo": _item(1, "menzen tsumo (menzen, win by tsumo)"),
    "tanyao": _item(1, "tanyao (every card 2-8; open OK)"),
    "pinfu": _item(1, "pinfu (menzen, two runs, head not J/Q/K, two-sided wait)"),
    "iipeikou": _item(1, "iipeikou (menzen, two identical runs; ron OK)"),
    "sutoitsu": _item(1, "sutoitsu (four pairs; never with iipeikou); off: no four-pairs shape"),
    "ryankoutsu": _item(1, "ryankoutsu (two triplets; open OK)"),
    "ryankantsu": _item(1, "ryankantsu (the winner has two kans; open OK)",
                        stacks=_bool(True, "ryankantsu also scores ryankoutsu "
                                     "(spec ryankantsu_stacks)", "I")),
    "chanta": _item(1, "chanta (every set and head holds a yaochu card)",
                    needs_terminal=_bool(True, "chanta needs some 1 or 9 (spec "
                                         "chanta_needs_terminal; all-honour hands get only jqk)",
                                         "I"),
                    on_pairs=_bool(False, "four pairs may be chanta (spec chanta_on_pairs; "
                                   "false: as chiitoitsu)", "I")),
    "yakuhai": _item(1, "yakuhai (a triplet or kan of 10, J, Q or K)",
                     per_set=_bool(True, "points per such set, not once (spec yakuhai_per_set)",
                                   "I")),
    "rinshan": _item(1, "rinshan (tsumo on a kan replacement)",
                     on_nukidora=_bool(False, "a nukidora replacement counts too (spec "
                                       "rinshan_on_nukidora; the source says 「カンの補充札」)", "I")),
}

# Additive items (spec §8, §7). `is yaku` under scoring.additive_are_yaku except dora, ura,
# ura_joker, nukidora, nagashi.
ADDITIVE = {
    "riichi": _item(1, "riichi"),
    "double_riichi": _item(2, "double riichi (first own discard, no call before; a riichi)",
                           stacks=_bool(False, "double riichi adds to riichi's point (3 in all); "
                                        "false: 2 in all (spec double_riichi_stacks)", "I")),
    "open_riichi": _item(2, "open riichi, replacing riichi's point (spec open_riichi)", "X"),
    "ippatsu": _item(1, "ippatsu"),
    "chinitsu": _item(1, "chinitsu (every card, revealed sets too, one colour; see "
                      "cards.one_colour)"),
    "renhou": _item(1, "renhou (ron before one's first draw, no call yet)",
                    window=_enum("own_first_draw", RENHOU_WINDOW,
                                 "own_first_draw: before one's own first draw; first_go_around: "
                                 "during the first go-around (spec renhou_window)")),
    "jqk": _item(1, "jqk (every card J, Q or K)"),
    "nagashi": _item(1, "nagashi (all own discards yaochu, at least one, none called)",
                     when=_enum("at_win", NAGASHI,
                                "at_win: a bonus of the winner; at_draw: +points at an exhaustive "
                                "draw to each qualifying player; off (spec nagashi)")),
    "haitei": _item(1, "haitei (tsumo on the last stock card)",
                    on_replacement=_bool(True, "a replacement draw of the last stock card counts "
                                         "(spec haitei_on_replacement)", "I")),
    "houtei": _item(1, "houtei (ron on the last discard)"),
    "tenhou": _item(8, "tenhou (dealer tsumo on the first draw, no call before)"),
    "chiihou": _item(8, "chiihou (non-dealer tsumo on the first draw, no call before)",
                     excludes_replacement=_bool(True, "a win on a replacement draw is not a "
                                                "first-draw win (tenhou too; spec "
                                                "first_draw_excludes_replacement)", "I")),
    "dora": _item(1, "dora, per card (hand, revealed sets, win card) of the rank after the "
                  "indicator (spec dora_value)", "I"),
    "ura": {"enabled": _bool(True, "ura dora, per card, riichi wins only; each worth "
                             "scoring.additive.dora.points (the spec's one dora_value)")},
    "ura_joker": _item(1, "ura indicator is a joker: flat, instead of ura dora",
                       when=_enum("riichi_only", URA_JOKER, "riichi_only: on riichi wins; "
                                  "any_win: on every win (spec ura_joker)")),
    "nukidora": _item(1, "nukidora, per joker set aside"),
}

YAKUMAN = {
    "points": _int(13, "a yakuman's value", min=0, max=1000),
    "double_points": _int(26, "a double yakuman's value (kokushi_double)", min=0, max=1000),
    "exclusive": _bool(True, "a yakuman hand scores exactly its value: nothing else, tenhou's 8 "
                       "ignored; false: added to every other item (spec yakuman_exclusive)", "I"),
    "paaren": {
        "enabled": _bool(True, "paaren 八連 (1-8 or 2-9 one each, no head)"),
        "one_colour": _bool(True, "paaren must be one colour (spec paaren_one_colour; "
                            "「一色ｱﾀﾏ無し」); its waits, tenpai and furiten follow (§2)",
                            "I"),
    },
    "chinroutou": {"enabled": _bool(True, "chinroutou 清老頭 (exactly AAAA9999)")},
    "kokushi": {"enabled": _bool(True, "kokushi (1, 9, 10, J, Q, K, joker + one more of them; "
                                 "spec kokushi; the source: 「なんてどう？」)", "I")},
    "kokushi_double": {"enabled": _bool(True, "double kokushi (kokushi, joker-pair head, the "
                                        "other cards one colour; spec kokushi_double; "
                                        "「とかな」)", "I")},
}

DEDUCTIONS = {
    "pon": _int(1, "points subtracted per pon (「何度でもマイナス１点」)", min=0, max=1000),
    "pon_penalty": _enum("win_only", PON_PENALTY, "win_only: the winner's pons at the win; "
                         "always: every pon costs at once, win or not (spec pon_penalty)"),
    "kakan_keeps_pon_penalty": _bool(True, "a pon turned into an added kan still costs (spec "
                                     "kakan_keeps_pon_penalty)", "I"),
    "noten": _int(1, "points each noten player loses at an exhaustive draw", min=0, max=1000),
    "chombo": Field("int", 8, "chombo penalty (「８点ぐらい？」; beginner: 2); not modelled", "X",
                    min=0, max=1000),
}

SCHEMA = {
    "game": Field("game", GAME, "the game family (required: ptrump)"),
    "name": Field("str", None, "scenario name (defaults to the file name)", "T"),
    "description": Field("str", "", "what this variant is for", "T"),
    "players": Field("players", [{"policy": "random", "params": {}},
                                 {"policy": "random", "params": {}}],
                     "2 or 3 seats in play order, each {policy: NAME, params: {NAME: number}}; "
                     "the seat count is the number of players", "I"),
    "run": {
        "games": _int(10000, "matches per run", "T", min=1, max=2**63 - 1),
        "seed": _int(0, "base seed: everything of match i derives from (seed, i)", "T", min=0,
                     max=2**64 - 1),
        "workers": _int(0, "worker processes (0: one per core)", "T", min=0),
    },
    "beginner": _bool(False, "beginner rules (ガキルール): furiten none, scoring.yaku_required "
                      "false, chombo 2 (spec §10)"),
    "beginner_yaku": _enum("all", BEGINNER_YAKU, "yaku under beginner rules (the source's "
                           "「役の単純化」 is not given; all: the full table) (spec beginner_yaku)"),
    "cards": {
        "one_colour": _enum("suit", ONE_COLOUR,
                            "what 一色 means for chinitsu, paaren, kokushi_double: suit (physical "
                            "suit; jokers never break it), red_black, numbers (every card 1-9: a "
                            "joker breaks it), "
                            "off (no chinitsu, kokushi_double; paaren any colour)"),
        "yaochu_honours": _bool(True, "10, J, Q, K and joker are yaochu besides 1 and 9 (chanta)",
                                "I"),
    },
    "hand": {
        "koutsu_counts_kans": _bool(True, "a kan counts as a triplet (ryankoutsu)", "I"),
        "sutoitsu_same_pairs": _bool(True, "four of a rank may be two of the four pairs", "I"),
        "open_kan_breaks_menzen": _bool(True, "an open kan breaks menzen (ankan and nukidora "
                                        "never do)", "I"),
    },
    "tenpai": {
        "needs_yaku": _bool(False, "tenpai at a draw needs a yaku (spec tenpai_needs_yaku)", "I"),
        "needs_live_wait": _bool(True, "a rank all of whose copies the player holds is no wait "
                                 "(spec tenpai_needs_live_wait)", "I"),
        "noten_declaration": _enum("auto", NOTEN_DECLARATION, "auto: the engine judges tenpai "
                                   "and shows those hands only (spec noten_declaration)"),
    },
    "stock": {
        "indicators_in_stock": _bool(False, "the two indicators stay part of the stock (false: "
                                     "38 cards with 2p, 31 with 3p)", "I"),
        "replacement_reserve": _int(0, "cards above the indicators kept for replacement draws "
                                    "only; ordinary draws end there (alt 4)", "I", min=0, max=8),
    },
    "calls": {
        "kan_after_pon": _bool(False, "a kan right after one's pon, before the discard", "I"),
        "kuikae": _bool(False, "after a pon one may discard the ponned rank", "I"),
        "call_last_discard": _bool(False, "the last discard may be ponned or kanned (false: only "
                                   "ronned)", "I"),
        "multiple_ron": _enum("head_bump", MULTIPLE_RON,
                              "head_bump: the first claimant after the discarder wins; all: "
                              "every claimant wins"),
        "may_decline_win": _bool(True, "any win may be declined", "I"),
    },
    "kan": {
        "max_per_round": _int(2, "kans per round, all players together (「全員で１ゲーム２回まで」)",
                              min=0, max=4),
        "open_kan_from": _enum("any", OPEN_KAN_FROM,
                               "any: any opponent's discard; previous_only: only the player "
                               "before (「ツモる直前に」)"),
        "added_kan": _bool(True, "a 4th card onto one's own pon (kakan)", "I"),
        "replacement_needs_stock": _bool(True, "kan and nukidora need at least one stock card",
                                         "I"),
        "chankan_added_kan": _bool(True, "any hand may ron the card added in a kakan (no yaku)",
                                   "I"),
        "kokushi_robs_ankan": _bool(True, "kokushi may ron the 4th card of a closed kan"),
    },
    "nukidora": {
        "mode": _enum("replace", NUKIDORA_MODE,
                      "replace: set aside after a draw, then draw a replacement; "
                      "instead_of_discard: set aside as the turn's discard (spec nukidora)"),
        "in_content_checks": _bool(False, "set-aside jokers count as held cards for tanyao, "
                                   "jqk and chinitsu under one_colour: numbers (spec "
                                   "nuki_in_content_checks; false: like a set-aside 北)",
                                   "I"),
        "rob": _enum("kokushi_only", ROB_NUKIDORA,
                     "who may ron a joker being set aside: kokushi_only or any_joker_wait (a "
                     "hand waiting on a joker head) (spec rob_nukidora)"),
        "interrupts": _bool(False, "a nukidora breaks ippatsu and the first-turn rules (spec "
                            "nukidora_interrupts)", "I"),
    },
    "furiten": _enum("full", FURITEN, "full: discard, temporary and riichi furiten (002); "
                     "discard_only: own discards only; none"),
    "riichi": {
        "requires_menzen": _bool(True, "riichi needs menzen (spec riichi_requires_menzen)", "I"),
        "min_stock": _enum("players", RIICHI_MIN_STOCK,
                           "players: at least as many stock cards as players (one more own "
                           "draw); one: at least one (spec riichi_min_stock)"),
        "ankan": _bool(False, "an ankan in riichi (false: the hand is frozen, literal) (spec "
                       "riichi_ankan)", "I"),
        "deposit": _int(1, "points deposited on riichi (「１点供託」)", min=0, max=1000),
        "deposits": _enum("carry", DEPOSITS,
                          "carry: the round's winner takes all, after a draw they stay, lost at "
                          "match end; lost_at_draw: a draw forfeits them (spec deposits)"),
        "allow_negative_score": _bool(True, "a player may declare riichi below the deposit and "
                                      "go negative", "I"),
        "ippatsu_window": _enum("next_discard", IPPATSU_WINDOW,
                                "a win before one's next discard, no pon/kan by anyone in "
                                "between (002 silent)"),
        "open_riichi": Field("enum", "off", "open riichi may be declared (「事前協議で」); "
                             "scored by scoring.additive.open_riichi", "X", choices=OPEN_RIICHI),
    },
    "scoring": {
        "yaku_required": _bool(True, "a win needs a yaku (「１役縛り」; beginner: false)"),
        "additive_are_yaku": _bool(True, "additive items satisfy the yaku requirement, except "
                                   "dora, ura, ura_joker, nukidora, nagashi", "I"),
        "negative_win": _enum("floor_zero", NEGATIVE_WIN,
                              "a win worth less than 0: floor_zero (scores 0), literal (scores "
                              "it), forbidden (may not be declared)"),
        "best_decomposition": _bool(True, "the highest-valued reading scores (高点法); false: the "
                                    "first legal reading in decomposition order", "I"),
        "yaku": YAKU,
        "additive": ADDITIVE,
        "deductions": DEDUCTIONS,
        "yakuman": YAKUMAN,
    },
    "exhaustive_draw": {
        "noten_to_tenpai": _bool(False, "noten penalties go to the tenpai players", "I"),
        "nagashi_keeps_noten": _bool(True, "nagashi at_draw still pays its noten penalty", "I"),
    },
    "match": {
        "start_score": _int(0, "score each player starts with", "I", min=-1000, max=1000),
        "start_bonus": {   # [V] compensation variants, not in the source (issue 29)
            "first_dealer": _int(0, "extra starting score of the seat that deals first", "V",
                                 min=-1000, max=1000),
            "second": _int(0, "extra starting score of the seat after the first dealer", "V",
                           min=-1000, max=1000),
            "third": _int(0, "extra starting score of the seat two after the first dealer "
                          "(3 players)", "V", min=-1000, max=1000),
        },
        "target_score": Field("int", 30, "after a round, a player at or above it wins "
                              "(「例えば「３０点」」)", "X", min=1, max=10000),
        "target_tie": _enum("shared", TARGET_TIE,
                            "several at the top: shared (equal highest share the match); "
                            "play_on (another round)"),
        "max_rounds": _int(200, "rounds before the match stops; then the highest wins", "I",
                           min=1, max=100000),
        "first_dealer": Field("enum", "random", "seat that deals the first round, or random",
                              "I", choices=FIRST_DEALER),
        "next_dealer": _enum("rotate", NEXT_DEALER, "rotate: the next seat every round; winner: "
                             "the round's winner (a draw rotates)"),
    },
}

# Spec option name -> key path (every [I]/[X] option of the spec, and the stated values that
# are options here).
SPEC_OPTIONS = {
    "one_colour": "cards.one_colour", "yaochu_honours": "cards.yaochu_honours",
    "koutsu_counts_kans": "hand.koutsu_counts_kans",
    "sutoitsu_same_pairs": "hand.sutoitsu_same_pairs",
    "open_kan_breaks_menzen": "hand.open_kan_breaks_menzen",
    "tenpai_needs_yaku": "tenpai.needs_yaku", "tenpai_needs_live_wait": "tenpai.needs_live_wait",
    "noten_declaration": "tenpai.noten_declaration",
    "players": "players", "start_score": "match.start_score",
    "first_dealer": "match.first_dealer", "indicators_in_stock": "stock.indicators_in_stock",
    "replacement_reserve": "stock.replacement_reserve", "open_kan_from": "kan.open_kan_from",
    "added_kan": "kan.added_kan", "replacement_needs_stock": "kan.replacement_needs_stock",
    "nukidora": "nukidora.mode", "nuki_in_content_checks": "nukidora.in_content_checks",
    "rob_nukidora": "nukidora.rob", "chankan_added_kan": "kan.chankan_added_kan",
    "multiple_ron": "calls.multiple_ron", "call_last_discard": "calls.call_last_discard",
    "may_decline_win": "calls.may_decline_win", "kan_after_pon": "calls.kan_after_pon",
    "kuikae": "calls.kuikae", "negative_win": "scoring.negative_win",
    "additive_are_yaku": "scoring.additive_are_yaku",
    "best_decomposition": "scoring.best_decomposition", "furiten": "furiten",
    "deposits": "riichi.deposits", "riichi_requires_menzen": "riichi.requires_menzen",
    "riichi_min_stock": "riichi.min_stock", "riichi_ankan": "riichi.ankan",
    "allow_negative_score": "riichi.allow_negative_score",
    "double_riichi_stacks": "scoring.additive.double_riichi.stacks",
    "ippatsu_window": "riichi.ippatsu_window", "nukidora_interrupts": "nukidora.interrupts",
    "open_riichi": "riichi.open_riichi", "yakuman_exclusive": "scoring.yakuman.exclusive",
    "ryankantsu_stacks": "scoring.yaku.ryankantsu.stacks",
    "chanta_needs_terminal": "scoring.yaku.chanta.needs_terminal",
    "chanta_on_pairs": "scoring.yaku.chanta.on_pairs",
    "yakuhai_per_set": "scoring.yaku.yakuhai.per_set",
    "rinshan_on_nukidora": "scoring.yaku.rinshan.on_nukidora",
    "renhou_window": "scoring.additive.renhou.window", "nagashi": "scoring.additive.nagashi.when",
    "haitei_on_replacement": "scoring.additive.haitei.on_replacement",
    "first_draw_excludes_replacement": "scoring.additive.chiihou.excludes_replacement",
    "dora_value": "scoring.additive.dora.points",
    "ura_joker": "scoring.additive.ura_joker.when",
    "pon_penalty": "scoring.deductions.pon_penalty",
    "kakan_keeps_pon_penalty": "scoring.deductions.kakan_keeps_pon_penalty",
    "paaren_one_colour": "scoring.yakuman.paaren.one_colour",
    "kokushi": "scoring.yakuman.kokushi.enabled",
    "kokushi_double": "scoring.yakuman.kokushi_double.enabled",
    "noten_to_tenpai": "exhaustive_draw.noten_to_tenpai",
    "nagashi_keeps_noten": "exhaustive_draw.nagashi_keeps_noten",
    "target_score": "match.target_score", "target_tie": "match.target_tie",
    "max_rounds": "match.max_rounds", "next_dealer": "match.next_dealer",
    "beginner": "beginner", "yaku_required": "scoring.yaku_required",
    "beginner_yaku": "beginner_yaku", "chombo": "scoring.deductions.chombo",
}

# What `beginner: true` sets (spec §10): key path -> value. A scenario that sets one of these
# to something else together with beginner: true is refused.
BEGINNER_SETS = {"furiten": "none", "scoring.yaku_required": False,
                 "scoring.deductions.chombo": 2}


def defaults(schema=SCHEMA) -> dict:
    """The fully populated default scenario as plain data."""
    return schema_common.defaults(schema, Field)


def iter_fields(schema=SCHEMA, prefix=""):
    """(dotted key path, Field) for every leaf."""
    return schema_common.iter_fields(schema, Field, prefix)


def field_at(path: str, schema=SCHEMA) -> Field:
    """The Field at a dotted key path."""
    node = schema
    for k in path.split("."):
        node = node[k]
    assert isinstance(node, Field), path
    return node


# bounds of the engine (simcore.ptrump.engine, cards): a winning hand's cards (7 dealt, the win,
# a kan's fourth card for each of at most 4 kans), jokers (nukidora), sets of a hand
MAX_HAND_CARDS = 12
N_JOKERS = 2
MAX_SETS = 4
SCORE_PACKED = 2 ** 19 - 1   # engine.SCORE_OFFSET: a replay's round_end packs scores in 20 bits


def worst_cases(d: dict) -> list:
    """What the engine forms from P-style's numbers and what stores it (simcore.family.scenario.bounds):
    a round's win value (every item of the table at once, the per-card ones for every card, a
    yakuman on top, each winner's: the records' 16-bit value columns), the riichi deposits a
    pool can gather over the match (the 16-bit deposits columns) and a score (the target and a
    winning round above, every round's noten penalty, deposit and pons below: the 20 bits a
    replay's round_end packs each score in)."""
    from simcore.family.scenario.bounds import INT16_MAX, Worst

    def pts(sc, group, name):
        item = sc[group][name]
        return item["points"] if item.get("enabled", True) else 0

    per_card = {"dora": MAX_HAND_CARDS, "nukidora": N_JOKERS}

    # each bound reads the d it is given (the kit calls it on copies with one key reset to find
    # the key that matters), never the d worst_cases was called with
    def value(d):
        sc = d["scoring"]
        one = sum(pts(sc, "yaku", k) * (MAX_SETS if k == "yakuhai" else 1) for k in YAKU)
        one += sum(pts(sc, "additive", k) * per_card.get(k, 1) for k in ADDITIVE if k != "ura")
        if sc["additive"]["ura"]["enabled"]:   # ura dora: worth the dora's points each
            one += sc["additive"]["dora"]["points"] * MAX_HAND_CARDS
        one += max(sc["yakuman"]["points"], sc["yakuman"]["double_points"])
        return len(d["players"]) * one

    def pool(d):
        return d["match"]["max_rounds"] * len(d["players"]) * d["riichi"]["deposit"]

    def score(d):
        m, sc = d["match"], d["scoring"]
        pons = 4 * sc["deductions"]["pon"] if sc["deductions"]["pon_penalty"] == "always" else 0
        per_round = sc["deductions"]["noten"] + d["riichi"]["deposit"] + pons
        return 2000 + max(m["target_score"] + value(d) + pool(d), m["max_rounds"] * per_round)

    item_keys = tuple(f"scoring.{g}.{k}.points" for g in ("yaku", "additive")
                      for k in (YAKU if g == "yaku" else ADDITIVE) if k != "ura")
    value_keys = (*item_keys, "scoring.yakuman.points", "scoring.yakuman.double_points")
    pool_keys = ("riichi.deposit", "match.max_rounds")
    return [Worst("a round's win value", value, value_keys, INT16_MAX,
                  "the records' value columns", "points"),
            Worst("the riichi deposits of a pool", pool, pool_keys, INT16_MAX,
                  "the records' deposits columns", "points"),
            Worst("a score", score, ("match.max_rounds", "scoring.deductions.noten",
                                     "scoring.deductions.pon", "riichi.deposit",
                                     "match.target_score", *value_keys), SCORE_PACKED,
                  "a replay's round_end events (20 bits a score)", "points")]
