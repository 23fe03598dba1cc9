//! Matching a rule of `uri.pest` against a whole input: the compiled [recognizer](recognizer) decides and
//! records the component spans; when it rejects, the [explainer](explainer) (pest's attempt tracking,
//! compiled from the same grammar) finds the furthest position and what was expected there, the
//! expected items a listed class contains are left out ([subsumption](subsumption)), and
//! [`classify`](classify) judges the error's kind and hint. The pest_derive [reference](reference) parser
//! is what they are tested against. Nothing of pest is public.

use std::borrow::Cow;

use crate::components::{self, Parts, RefParts};
pub(crate) use crate::error::Expected;
use crate::error::{ExpectedList, ParseError};
pub(crate) use crate::rule::Rule;

pub(crate) mod classes;
pub(crate) mod classify;
pub(crate) mod explainer;
pub(crate) mod recognizer;
pub(crate) mod reference;
pub(crate) mod subsumption;

use reference::parse_parts_reference;

impl Rule {
    /// Matches `input` as a whole against this rule with the reference engine, the parser `pest_derive`
    /// generates from `uri.pest`, and explains a rejection as pest does; the crate's own engine (the
    /// recognizer `build.rs` compiles from the same grammar, used by [`validate`](crate::validate) and
    /// every parse function) gives the same answers, only faster. For comparing the two, or for pest's
    /// own answer.
    ///
    /// ```
    /// use rfc3986::Rule;
    /// let reference = Rule::URI_REFERENCE.validate_with_reference("http://a/b c").unwrap_err();
    /// let compiled = rfc3986::validate(Rule::URI_REFERENCE, "http://a/b c").unwrap_err();
    /// assert_eq!(reference, compiled);
    /// ```
    ///
    /// # Errors
    /// [`ParseError`] when `input` is not in the rule's language.
    pub fn validate_with_reference(self, input: &str) -> Result<(), ParseError> {
        if input.len() > components::MAX_LEN {
            return Err(ParseError::too_long(self, input));
        }
        parse_parts_reference(self, input).map(|_| ())
    }
}

/// Matches `rule` against the whole of `input` and returns the spans of the components found.
///
/// The compiled recognizer decides and reports the spans; when it rejects, its explainer (generated
/// from the same grammar) explains why. Neither runs pest: the pest_derive parser is the reference they
/// are tested against, and what [`Rule::validate_with_reference`] runs.
///
/// # Errors
/// A [`ParseError`] at the byte where the match failed when `input` is not in the rule's language;
/// [`ParseErrorKind::LimitReached`](crate::ParseErrorKind::LimitReached) for an input over 4 GiB - 2 bytes.
#[inline(always)]
pub(crate) fn parse_parts(rule: Rule, input: &str) -> Result<Parts, ParseError> {
    if let Some(parts) = parse_parts_fast(rule, input) {
        return Ok(parts);
    }
    parse_parts_without_fast_path(rule, input)
}

/// [`parse_parts`] after the fast path declined: the length limit, then the explanation of the rejection
/// by the explainer. The components come from the pest_derive parser only in the one case the
/// recognizer cannot record them (a component rule matched twice; `uri.pest` has none).
#[cold]
#[inline(never)]
pub(crate) fn parse_parts_without_fast_path(rule: Rule, input: &str) -> Result<Parts, ParseError> {
    if input.len() > components::MAX_LEN {
        return Err(ParseError::too_long(rule, input));
    }
    match explain(rule, input) {
        Some(error) => Err(error),
        None => parse_parts_reference(rule, input),
    }
}

/// The error for an input the recognizer declined: the furthest position the grammar reached and what it
/// expected there, from the explainer (the same answer as pest's detail parser); `None` when the
/// explainer accepts the input (the recognizer declined only because it could not record the components).
#[cold]
#[inline(never)]
pub(crate) fn explain(rule: Rule, input: &str) -> Option<ParseError> {
    let (offset, expected, scanned) = attempts(rule, input)?;
    Some(classify::classify(
        rule,
        input,
        offset,
        expected,
        Some(scanned),
    ))
}

/// The explainer's answer on `input`: the furthest position the grammar reached and the items it
/// expected there (folded), and what its set-up found before its bound (for `classify`); `None` when
/// `input` is in the language of `rule`.
#[inline(always)]
fn attempts(rule: Rule, input: &str) -> Option<(usize, ExpectedList, classify::Scanned)> {
    use crate::engine::explainer::{self, Diag};
    let s = input.as_bytes();
    // Where the recognizer's match stopped, when it just rejected this input: the explainer records
    // nothing before it (see `Diag::with_bound`), and runs again from 0 when that was wrong.
    let bound = crate::engine::recognizer::rejection_hint(rule.index(), s).min(s.len());
    let (reach, marked) = explainer::reach_and_marks(&s[..bound], &classify::HINT_BYTES);
    let scanned = classify::Scanned {
        bound,
        reach,
        marked,
    };
    let mut d = Diag::with_reach(s, bound, reach);
    if explainer::explain(rule.index(), &mut d) == Some(input.len()) {
        return None;
    }
    if !d.recorded() && bound > 0 {
        d = Diag::with_bound(s, 0);
        explainer::explain(rule.index(), &mut d);
    }
    let offset = d.offset();
    // The list of the same attempts in the same order met last on this thread, else the list of the
    // set of their places.
    let words = d.positive_words();
    let seen = words.and_then(|words| seen_list(&words));
    let expected = match seen {
        Some(list) => ExpectedList::Static(list),
        None => {
            let table = expected_items();
            let ids = d.positive_ids();
            let expected = match place_bits(table, &ids) {
                Some(key) => folded_once(key, || {
                    let mut places = Vec::new();
                    places_of_bits(&key, &mut places);
                    fold_places(table, &places)
                }),
                None => expected_from_ids(table, &mut ids.clone()).into(),
            };
            if let (Some(words), ExpectedList::Static(list)) = (&words, &expected) {
                remember_list(words, list);
            }
            expected
        }
    };
    Some((offset, expected, scanned))
}

/// A short attempt list as a key ([`Diag::positive_words`](crate::engine::explainer::Diag::positive_words)):
/// its number of entries (an id, or a replayed step's place standing for its ids) and the entries, four
/// to a word, zero past the last.
type Words = (usize, [u64; 8]);

/// The places of [`seen_list`]'s cache, the one `words` maps to: from the length and the first eight
/// entries (lists that differ only past them share a place, and take turns in it).
#[inline(always)]
fn seen_place(words: &Words) -> usize {
    let mixed = (words.1[..2].iter()).fold(words.0 as u64, |h, &w| h.rotate_left(23) ^ w);
    (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 57) as usize
}

/// An attempt list and its folded list, in [`seen_list`]'s cache.
type Seen = Option<(Words, &'static [Expected])>;

thread_local! {
    /// The folded lists of the last attempt lists this thread met, by [`seen_place`] (one per place).
    static SEEN: std::cell::RefCell<[Seen; 128]> = const { std::cell::RefCell::new([None; 128]) };
}

/// The folded list this thread made last for the attempt list `words` (the same entries in the same
/// order, so the same ids: what the set of their places, [`folded_once`]'s key, is made from), looked
/// up without reading out the ids: the lines of a file that fail in one way mostly fail with the same
/// attempts.
#[inline]
fn seen_list(words: &Words) -> Option<&'static [Expected]> {
    let place = seen_place(words);
    // (Word by word, with no branch per word: a comparison of the arrays is a `memcmp` call.)
    let equal = |key: &Words| {
        let lengths = u64::from(key.0 != words.0);
        (key.1.iter().zip(&words.1)).fold(lengths, |d, (a, b)| d | (a ^ b)) == 0
    };
    SEEN.try_with(|seen| match seen.borrow()[place] {
        Some((key, list)) if equal(&key) => Some(list),
        _ => None,
    })
    .ok()
    .flatten()
}

/// Keeps `list` as the folded list of the attempt list `words` for [`seen_list`].
fn remember_list(words: &Words, list: &'static [Expected]) {
    let place = seen_place(words);
    // (A thread being torn down has no cache any more: the list is then just not kept.)
    let _ = SEEN.try_with(|seen| seen.borrow_mut()[place] = Some((*words, list)));
}

/// What the grammar accepts right after a complete, non-empty port in the language of `rule` (after
/// `"//" "@" host ":" 1*DIGIT`), as the explainer lists it: `DIGIT`, then what may end the authority
/// there (`"/"`, `"?"`, `"#"`, the end of the input, as far as `rule` allows each); `None` when no input of
/// `rule` has an authority with a userinfo and a port where a probe looks for one. The list is in the order
/// of the components each item starts. Worked out once per
/// rule and process, from the grammar itself (a probe per shape of rule: an authority alone, a relative
/// reference, a URI), so no list of delimiters is written in Rust.
pub(crate) fn after_port(rule: Rule) -> Option<ExpectedList> {
    use std::sync::OnceLock;
    type Lists = Vec<OnceLock<Option<Box<[Expected]>>>>;
    static AFTER_PORT: OnceLock<Lists> = OnceLock::new();
    let lists = AFTER_PORT.get_or_init(|| Rule::all().map(|_| OnceLock::new()).collect());
    lists[rule.index()]
        .get_or_init(|| {
            // A NUL, which no rule accepts, right after the port: the explainer fails there and lists
            // what would have been accepted. The "@" takes the userinfo alternative out of the picture.
            ["@h:0\0", "//@h:0\0", "a://@h:0\0"]
                .into_iter()
                .find_map(|probe| match attempts(rule, probe) {
                    Some((offset, expected, _)) if offset + 1 == probe.len() => {
                        // Listed in the order the components they start come in (RFC 3986 4.1:
                        // path, query, fragment), not in the order pest happened to try them.
                        let mut expected = expected.to_vec();
                        expected.sort_by_key(|item| match item {
                            Expected::Rule(_) => 0,
                            Expected::Literal(text) => match text.as_ref() {
                                "/" => 1,
                                "?" => 2,
                                "#" => 3,
                                _ => 4,
                            },
                            Expected::EndOfInput => 5,
                        });
                        Some(expected.into_boxed_slice())
                    }
                    _ => None,
                })
        })
        .as_deref()
        .map(ExpectedList::Static)
}

/// The folded list of the built-in explainer for the set of places `key`, made by `fold` the first time
/// the process meets the set ([`interned`]) and looked up in this thread's cache after that: the lines a
/// file rejects have few distinct sets, and folding is most of the cost of an explanation after the
/// explainer's run. The cache has 256 sets of two lists (the one used last first), 512 lists per thread
/// at most: two sets met often that map to the same place do not drive each other out.
fn folded_once(key: [u64; 4], fold: impl FnOnce() -> Vec<Expected>) -> ExpectedList {
    use std::cell::RefCell;
    type Slot = Option<([u64; 4], ExpectedList)>;
    thread_local! {
        static FOLDED: RefCell<[[Slot; 2]; 256]> =
            const { RefCell::new([const { [None, None] }; 256]) };
    }
    let mixed = key[0] ^ key[1].rotate_left(16) ^ key[2].rotate_left(32) ^ key[3].rotate_left(48);
    let index = (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize;
    let hit = FOLDED.try_with(|cache| {
        let set = &mut cache.borrow_mut()[index];
        match set {
            [Some((k, list)), _] if *k == key => Some(list.clone()),
            [_, Some((k, list))] if *k == key => {
                let list = list.clone();
                set.swap(0, 1);
                Some(list)
            }
            _ => None,
        }
    });
    if let Ok(Some(list)) = hit {
        return list;
    }
    let list = interned(key, fold);
    // (A thread being torn down has no cache any more: the list is then just not kept.)
    let _ = FOLDED.try_with(|cache| {
        let set = &mut cache.borrow_mut()[index];
        set[1] = set[0].take();
        set[0] = Some((key, list.clone()));
    });
    list
}

/// The folded list for the set of places `key`, kept for the rest of the process (made by `fold` the
/// first time any thread meets the set), so that errors borrow it ([`ExpectedList::Static`]) and no
/// reference count changes as they are made and dropped. At most [`INTERNED`] lists are kept (under a
/// megabyte at worst: 24 bytes an item, about 70 items at most a list; the corpus's rejections have 21
/// distinct lists); a set met after that gets a counted list of its own.
fn interned(key: [u64; 4], fold: impl FnOnce() -> Vec<Expected>) -> ExpectedList {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, PoisonError};
    static LISTS: Mutex<BTreeMap<[u64; 4], &'static [Expected]>> = Mutex::new(BTreeMap::new());
    let mut lists = LISTS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&list) = lists.get(&key) {
        return ExpectedList::Static(list);
    }
    let list = fold();
    if lists.len() >= INTERNED {
        return list.into();
    }
    let list: &'static [Expected] = Box::leak(list.into_boxed_slice());
    lists.insert(key, list);
    ExpectedList::Static(list)
}

/// The most folded lists [`interned`] keeps.
const INTERNED: usize = 512;

/// One item an explainer can record, in an [`ExpectedTable`].
#[derive(Debug)]
pub(crate) struct ExpectedItem {
    /// The item as an error lists it.
    pub(crate) expected: Expected,
    /// Whether it is a rule (rules are listed first, and only rules fold others away).
    pub(crate) is_rule: bool,
    /// The characters it accepts when it is one character, for [`fold`](crate::engine::subsumption): looked up at
    /// the first error that lists the item (see [`ExpectedItem::class`]).
    pub(crate) class: std::sync::OnceLock<Option<u128>>,
}

impl ExpectedItem {
    /// An item whose class is worked out when an error first lists it.
    pub(crate) fn new(expected: Expected, is_rule: bool) -> ExpectedItem {
        ExpectedItem {
            expected,
            is_rule,
            class: std::sync::OnceLock::new(),
        }
    }

    /// The characters the item accepts when it is one character ([`crate::engine::subsumption::class_of`]), looked
    /// up once (a rule's class is a constant of the generated explainer, a quoted string's comes from its
    /// text).
    pub(crate) fn class(&self) -> Option<u128> {
        *self
            .class
            .get_or_init(|| crate::engine::subsumption::class_of(&self.expected))
    }
}

/// A hasher of a few short keys (the items of a grammar, when [`ExpectedTable::new`] removes repeats):
/// eight bytes a step, a rotation, an exclusive or and a multiplication each. Not for keys an attacker
/// chooses in number (the items come from a grammar, not from an input).
#[derive(Clone, Copy, Default)]
struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
        let mut last = [0u8; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.add(u64::from_le_bytes(last) ^ (bytes.len() as u64) << 56);
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::BuildHasher for WordHasher {
    type Hasher = WordHasher;
    fn build_hasher(&self) -> WordHasher {
        WordHasher(0)
    }
}

/// What each id of an explainer's record of attempts stands for, arranged for
/// [`expected_from_ids`]: the distinct items in pest's error order (rules, then literals, then the end
/// of input; each in the order of the ids), and each id's place in that order (two ids can stand for
/// the same item, as the end of input and a whole-input entry rule do).
#[derive(Debug)]
pub(crate) struct ExpectedTable {
    ordered: Vec<ExpectedItem>,
    place: Vec<u16>,
    /// `place` as bytes, when the table has at most 256 ids and 256 items (uri.pest has about a
    /// hundred of each): what [`place_bits`] reads, one byte an id and no bounds check.
    byte_place: Option<Box<[u8; 256]>>,
}

impl ExpectedTable {
    /// The table for the items of an explainer, by id, with each item's rank in pest's order (0 for rules, 1
    /// for literals, 2 for the end of input).
    pub(crate) fn new(items: impl Iterator<Item = (Expected, u8)>) -> ExpectedTable {
        let items: Vec<(Expected, u8)> = items.collect();
        // The ids by rank, each rank in the order of the ids (a pass per rank: there are three).
        let ranks = items.iter().map(|&(_, rank)| rank).max().unwrap_or(0);
        let items = &items;
        let ids =
            (0..=ranks).flat_map(|rank| (0..items.len()).filter(move |&id| items[id].1 == rank));
        let mut ordered: Vec<ExpectedItem> = Vec::new();
        // (Hashed by `WordHasher`, not SipHash: this runs at the first rejection of a process.)
        let mut seen: std::collections::HashMap<&Expected, u16, WordHasher> =
            std::collections::HashMap::with_capacity_and_hasher(items.len(), WordHasher(0));
        let mut place = vec![0u16; items.len()];
        for id in ids {
            let (expected, rank) = &items[id];
            place[id] = *seen.entry(expected).or_insert_with(|| {
                ordered.push(ExpectedItem::new(expected.clone(), *rank == 0));
                (ordered.len() - 1) as u16
            });
        }
        let byte_place = (place.len() <= 256 && ordered.len() <= 256).then(|| {
            let mut bytes = Box::new([0u8; 256]);
            for (byte, &p) in bytes.iter_mut().zip(&place) {
                *byte = p as u8;
            }
            bytes
        });
        ExpectedTable {
            ordered,
            place,
            byte_place,
        }
    }
}

/// What was expected, from the ids a diagnostic run attempted at the furthest position (`ids`, in any
/// order, repeats allowed) and what each id stands for (`table`): in pest's order (rules, then
/// literals, then the end of input; each in the order of the grammar), without repeats, folded
/// ([`fold`](crate::engine::subsumption)). Shared by the built-in explainer and the engine of grammars loaded at run time,
/// so that both say the same. `ids` is used as scratch space (left sorted, as places in the table).
pub(crate) fn expected_from_ids(table: &ExpectedTable, ids: &mut Vec<u16>) -> Vec<Expected> {
    match place_bits(table, ids) {
        Some(bits) => places_of_bits(&bits, ids),
        None => {
            for id in ids.iter_mut() {
                *id = table.place[usize::from(*id)];
            }
            ids.sort_unstable();
            ids.dedup();
        }
    }
    fold_places(table, ids)
}

/// The set of the places in `table` of the ids in `ids`, as bits, when the table has at most 256 items
/// (uri.pest has about a hundred): the key of the folded list.
fn place_bits(table: &ExpectedTable, ids: &[u16]) -> Option<[u64; 4]> {
    let byte_place = table.byte_place.as_deref()?;
    let mut bits = [0u64; 4];
    for &id in ids {
        // (The ids of a table with a `byte_place` are below 256.)
        debug_assert!(usize::from(id) < table.place.len());
        let place = byte_place[usize::from(id as u8)];
        bits[usize::from(place >> 6)] |= 1 << (place & 63);
    }
    Some(bits)
}

/// Replaces `places` with the places set in `bits`, in order.
fn places_of_bits(bits: &[u64; 4], places: &mut Vec<u16>) {
    places.clear();
    for (w, &word) in bits.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            places.push((w * 64 + word.trailing_zeros() as usize) as u16);
            word &= word - 1;
        }
    }
}

/// The expected items at the places `ids` of `table` (in order, without repeats), folded.
fn fold_places(table: &ExpectedTable, ids: &[u16]) -> Vec<Expected> {
    // Folding (see `fold`): an item is dropped when a character-class rule of the list accepts all its
    // characters. Only those rules can drop anything: they are gathered first (rules come first in
    // the list, so their positions are in order).
    // (On the stack for the usual few; all rules of the list otherwise.)
    let mut few = [(0usize, 0u128); 16];
    let mut count = 0;
    let mut rules = 0;
    for &place in ids.iter() {
        let item = &table.ordered[usize::from(place)];
        if !item.is_rule {
            break;
        }
        if let (Some(b), true) = (item.class(), count < few.len()) {
            few[count] = (rules, b);
            count += 1;
        }
        rules += 1;
    }
    let all: Vec<(usize, u128)>;
    let class_rules: &[(usize, u128)] = if count < few.len() {
        &few[..count]
    } else {
        all = (ids[..rules].iter().enumerate())
            .filter_map(|(j, &place)| Some((j, table.ordered[usize::from(place)].class()?)))
            .collect();
        &all
    };
    let mut expected = Vec::with_capacity(ids.len());
    for (i, &place) in ids.iter().enumerate() {
        let item = &table.ordered[usize::from(place)];
        let dropped = item.class().is_some_and(|a| {
            class_rules.iter().any(|&(j, b)| {
                j != i
                    && crate::engine::subsumption::folds_into(a, item.is_rule, b, || {
                        table.ordered[usize::from(ids[j])].expected < item.expected
                    })
            })
        });
        if !dropped {
            expected.push(item.expected.clone());
        }
    }
    expected
}

/// What each item of the explainer's record stands for.
fn expected_items() -> &'static ExpectedTable {
    use crate::engine::explainer::{Item, ITEMS};
    static TABLE: std::sync::OnceLock<ExpectedTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        ExpectedTable::new(ITEMS.iter().map(|item| match *item {
            Item::Rule(i) => (Expected::rule(Rule::from_index(i)), 0),
            Item::Literal(text) => (Expected::Literal(Cow::Borrowed(text)), 1),
            Item::EndOfInput | Item::Entry => (Expected::EndOfInput, 2),
        }))
    })
}

/// The compiled recognizer: `Some` with the component spans when `input` matches `rule`, `None` when not.
#[inline(always)]
pub(crate) fn parse_parts_fast(rule: Rule, input: &str) -> Option<Parts> {
    recognized(rule, input, |events| {
        components::combine(events.matched(), |i| events.span(i))
    })
}

/// [`parse_parts_fast`] for a reference rule (`URI-reference`, `URI`, `relative-ref`, `absolute-URI`),
/// whose components are in the order of RFC 3986 4.1: the value's [`RefParts`] made from the recorded
/// spans at once.
#[inline(always)]
pub(crate) fn parse_reference_fast(rule: Rule, input: &str) -> Option<RefParts> {
    recognized(rule, input, |events| {
        RefParts::combine(events.matched(), |i| events.recorded(i), input.len())
    })
}

/// What `make` makes of the spans the compiled recognizer recorded when `input` matches `rule` (and no
/// component rule matched twice); `None` otherwise.
#[inline(always)]
fn recognized<T>(
    rule: Rule,
    input: &str,
    make: impl FnOnce(&crate::engine::recognizer::Events) -> T,
) -> Option<T> {
    let s = input.as_bytes();
    if s.len() > components::MAX_LEN {
        return None;
    }
    let mut events = crate::engine::recognizer::Events::new();
    if !crate::engine::recognizer::recognize(rule.index(), s, &mut events) || events.repeated() {
        return None;
    }
    Some(make(&events))
}

/// Whether `input` is in the language of `rule`, without explaining a rejection (the fast path when it is
/// compiled in, else the pest_derive parser).
pub(crate) fn matches(rule: Rule, input: &str) -> bool {
    crate::engine::recognizer::recognize_quiet(rule.index(), input.as_bytes())
}

/// Checks that `input` is in the language of `rule`, with the error of [`parse_parts`] when it is not,
/// without recording components.
pub(crate) fn validate(rule: Rule, input: &str) -> Result<(), ParseError> {
    if crate::engine::recognizer::recognize_quiet(rule.index(), input.as_bytes()) {
        return Ok(());
    }
    if input.len() > components::MAX_LEN {
        return Err(ParseError::too_long(rule, input));
    }
    match explain(rule, input) {
        Some(error) => Err(error),
        None => parse_parts_reference(rule, input).map(|_| ()),
    }
}

/// The compiled fast path against the pest_derive reference: same verdict and same component spans.
#[cfg(test)]
mod fast_path_agrees {
    use super::*;
    use proptest::prelude::*;

    const TRICKY: &[&str] = &[
        "",
        ":",
        "/",
        "//",
        "///",
        "?",
        "#",
        "a:",
        "a:b",
        "./a:b",
        "a/b:c",
        ":a",
        "//@",
        "//u@h:1/p?q#f",
        "http://a/b c",
        "%",
        "%4",
        "%41",
        "%GG",
        "http://%s/",
        "1.2.3.4",
        "//1.2.3.4",
        "//1.2.3.4x",
        "//1.2.3.256",
        "//1.2.3",
        "//01.2.3.4",
        "//255.255.255.255",
        "//[::]",
        "//[::1]",
        "//[1::]",
        "//[1:2:3:4:5:6:7:8]",
        "//[1:2:3:4:5:6:7::]",
        "//[::2:3:4:5:6:7:8]",
        "//[1:2:3:4:5:6:1.2.3.4]",
        "//[::1.2.3.4]",
        "//[1::1.2.3.4]",
        "//[1:2:3:4:5:6:7:8:9]",
        "//[1::2::3]",
        "//[12345::]",
        "//[v1.x]",
        "//[V1.x]",
        "//[v.x]",
        "//[vg.x]",
        "//[fe80::1%25eth0]",
        "http://h:",
        "http://h:99999",
        "http://h:x",
        "a#b#c",
        "#también",
        "mailto:John.Doe@example.com",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "tel:+1-816-555-1212",
        "news:comp.infosystems.www.servers.unix",
        "telnet://192.0.2.16:80/",
        "foo://example.com:8042/over/there?name=ferret#nose",
        "g;x=1/../y",
    ];

    #[track_caller]
    fn assert_agree(rule: Rule, input: &str) {
        let fast = parse_parts_fast(rule, input);
        let reference = parse_parts_reference(rule, input).ok();
        assert_eq!(fast, reference, "rule {rule} on {input:?}");
        let quiet = crate::engine::recognizer::recognize_quiet(rule.index(), input.as_bytes());
        assert_eq!(
            quiet,
            reference.is_some(),
            "quiet verdict, rule {rule} on {input:?}"
        );
    }

    #[test]
    fn fast_path_agrees_on_tricky_inputs_for_every_rule() {
        for rule in Rule::all() {
            for input in TRICKY {
                assert_agree(rule, input);
            }
        }
    }

    /// Every line of the shipped sample, and of the file named by `RFC3986_CORPUS` when it is set (the
    /// full corpus: `RFC3986_CORPUS=../shared/corpus/real-uris.txt cargo test fast_path`).
    #[test]
    fn fast_path_agrees_on_real_uris() {
        let mut text = include_str!("../../data/real-uris-sample.txt").to_string();
        if let Ok(path) = std::env::var("RFC3986_CORPUS") {
            text.push_str(&std::fs::read_to_string(&path).expect("RFC3986_CORPUS is readable"));
        }
        for line in text.lines() {
            for rule in [
                Rule::URI_REFERENCE,
                Rule::URI,
                Rule::ABSOLUTE_URI,
                Rule::RELATIVE_REF,
            ] {
                assert_agree(rule, line);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn fast_path_agrees_on_generated_inputs(input in "[a-fvV0-9:/?#@\\[\\].%!$&'()*+,;=~_ -]{0,24}") {
            for rule in Rule::all() {
                assert_agree(rule, &input);
            }
        }

        #[test]
        fn fast_path_agrees_on_generated_authorities(
            input in "(http://)?((u[:p]*)@)?(\\[[0-9a-fA-F:.v]{0,20}\\]|[0-9.]{0,12}|[a-z%0-9.]{0,8})(:[0-9a-z]{0,3})?(/[a-z.%:@]{0,4}){0,3}"
        ) {
            for rule in [Rule::URI_REFERENCE, Rule::URI, Rule::AUTHORITY, Rule::HOST, Rule::IP_LITERAL, Rule::IPV6ADDRESS] {
                assert_agree(rule, &input);
            }
        }
    }
}

/// [`expected_from_ids`]: pest's order, repeats dropped (also two ids standing for one item), folding.
#[cfg(test)]
mod expected_from_ids_tests {
    use super::*;
    use rstest::rstest;

    fn table() -> ExpectedTable {
        ExpectedTable::new(
            [
                (Expected::EndOfInput, 2),
                (Expected::rule(Rule::SEGMENT), 0),
                (Expected::Literal("/".into()), 1),
                (Expected::rule(Rule::ALPHA), 0),
                (Expected::Literal("a".into()), 1),
                (Expected::EndOfInput, 2),
                (Expected::rule(Rule::DIGIT), 0),
                (Expected::rule(Rule::UNRESERVED), 0),
            ]
            .into_iter(),
        )
    }

    fn names(ids: &[u16]) -> Vec<String> {
        expected_from_ids(&table(), &mut ids.to_vec())
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn a_long_list_of_class_rules_folds_too() {
        // 20 rules of one character each (more than the stack array holds), then a literal of the
        // character of the 19th: the literal goes.
        let mut ordered: Vec<ExpectedItem> = (0..20u32)
            .map(|i| ExpectedItem {
                expected: Expected::Rule(format!("r{i}").into()),
                is_rule: true,
                class: Some(1 << (b'A' as u32 + i)).into(),
            })
            .collect();
        ordered.push(ExpectedItem {
            expected: Expected::Literal("S".into()),
            is_rule: false,
            class: Some(1 << (b'A' as u32 + 18)).into(),
        });
        let table = ExpectedTable {
            place: (0..ordered.len() as u16).collect(),
            ordered,
            byte_place: None,
        };
        let expected = expected_from_ids(&table, &mut (0..21).rev().collect());
        assert_eq!(expected.len(), 20);
        assert!(!expected.contains(&Expected::Literal("S".into())));
    }

    #[rstest]
    #[case::small_table_through_the_bit_set(200)]
    #[case::large_table_through_sorting(300)]
    fn ids_come_out_in_place_order_without_repeats(#[case] items: usize) {
        let table =
            ExpectedTable::new((0..items).map(|i| (Expected::Literal(format!("x{i}").into()), 1)));
        let mut ids: Vec<u16> = vec![7, 3, 150, 3, 199, 0, 7];
        let expected = expected_from_ids(&table, &mut ids);
        let texts: Vec<String> = expected.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            texts,
            ["\"x0\"", "\"x3\"", "\"x7\"", "\"x150\"", "\"x199\""]
        );
    }

    /// The built-in explainer's lists are folded once per set of places and process: two rejections with
    /// the same set share one list, equal to the list folded anew; another set gets its own list.
    #[test]
    fn the_explainer_shares_one_folded_list_per_set_of_places() {
        let error = |input: &str| explain(Rule::URI_REFERENCE, input).expect("rejected");
        let (a, b, c) = (
            error("http://a/{x}"),
            error("http://b/{y}"),
            error("http://a b/"),
        );
        assert!(std::ptr::eq(a.expected(), b.expected()));
        assert_eq!(a.expected(), b.expected());
        assert_ne!(a.expected(), c.expected());
        // The same as the list folded without the cache, from the same attempts.
        for input in ["http://a/{x}", "http://a b/", "%zz", "http://[::1/"] {
            let mut d = crate::engine::explainer::Diag::new(input.as_bytes());
            let _ = crate::engine::explainer::explain(Rule::URI_REFERENCE.index(), &mut d);
            let fresh = expected_from_ids(expected_items(), &mut d.into_positive_ids());
            assert_eq!(error(input).expected(), fresh.as_slice(), "{input:?}");
        }
    }

    /// The lists this thread looks up by the attempts themselves (`seen_list`) are those of the
    /// attempts: rejections whose attempt lists differ (in length, order or ids; a long one in an IPv6
    /// address), met in turn and again in the other order, each get the error of the pest_derive
    /// reference.
    #[test]
    fn the_lists_looked_up_by_their_attempts_are_those_of_the_attempts() {
        let inputs = [
            "http://a b/",
            "http://a/{x}",
            "http://a/b?{",
            "http://a/b#{",
            "http://[::1/",
            "http://[v1.x/",
            "http://1.2.3.4x{/",
            "http://u@h:12x/",
            "%zz",
            "a:b:c{",
            "//a:b:c/",
            "#a#b",
            "?{",
            "http://{x}",
            "http://x.{y}",
            "",
        ];
        let long = "http://[1:2:3:4:5:6:7:8:9]/";
        let mut order: Vec<&str> = inputs.iter().chain([&long]).copied().collect();
        for _ in 0..2 {
            for input in &order {
                let here = explain(Rule::URI_REFERENCE, input);
                let reference = Rule::URI_REFERENCE.validate_with_reference(input).err();
                assert_eq!(here, reference, "{input:?}");
            }
            order.reverse();
        }
    }

    /// Another thread's error with the same set of places borrows the same list (kept for the process,
    /// not counted), and an error of the pest_derive reference, with a counted list of its own, equals it.
    #[test]
    fn regression_the_folded_lists_are_shared_between_threads() {
        let input = "http://a/{x}";
        let here = explain(Rule::URI_REFERENCE, input).expect("rejected");
        let there = std::thread::spawn(move || explain(Rule::URI_REFERENCE, input))
            .join()
            .expect("no panic")
            .expect("rejected");
        assert!(matches!(here.expected, ExpectedList::Static(_)));
        assert!(std::ptr::eq(here.expected(), there.expected()));
        let reference = Rule::URI_REFERENCE
            .validate_with_reference(input)
            .expect_err("rejected");
        assert!(matches!(reference.expected, ExpectedList::Shared(_)));
        assert_eq!(reference, here);
        assert_eq!(format!("{reference:?}"), format!("{here:?}"));
    }

    #[rstest]
    #[case::rules_then_literals_then_the_end(&[0, 2, 1], &["segment", "\"/\"", "end of input"])]
    #[case::repeats_are_listed_once(&[2, 1, 2, 1, 1], &["segment", "\"/\""])]
    #[case::two_ids_of_the_end_of_input_are_one_item(&[5, 0, 5], &["end of input"])]
    #[case::a_letter_goes_under_alpha(&[4, 3], &["ALPHA"])]
    #[case::alpha_and_digit_go_under_unreserved(&[6, 7, 3, 4], &["unreserved"])]
    #[case::nothing_attempted_is_an_empty_list(&[], &[])]
    fn expected_items_are_ordered_deduplicated_and_folded(
        #[case] ids: &[u16],
        #[case] want: &[&str],
    ) {
        assert_eq!(names(ids), want);
    }
}
