#include "engine/model/value_compare.h"

#include <algorithm>
#include <cstring>

#include "engine/base/check.h"
#include "engine/model/number.h"

namespace dynapage {

namespace {

// Canonical N text: optional '-', an integer part without leading zeros ("0" when below one), optionally '.'
// and a fraction without trailing zeros; "0" for zero.
bool LooksCanonical(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && s[i] == '-') i++;
  size_t int_begin = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++;
  size_t int_len = i - int_begin;
  if (int_len == 0) return false;
  if (int_len > 1 && s[int_begin] == '0') return false;
  if (i == s.size()) return !(s[0] == '-' && int_len == 1 && s[int_begin] == '0');  // "-0" is not canonical
  if (s[i] != '.') return false;
  i++;
  size_t frac_begin = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++;
  if (i != s.size() || i == frac_begin) return false;
  return s.back() != '0';
}

int Sign(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

// Compares the magnitudes of two canonical non-negative texts.
int CompareMagnitude(std::string_view a, std::string_view b) {
  size_t a_dot = a.find('.');
  size_t b_dot = b.find('.');
  std::string_view a_int = a.substr(0, a_dot);
  std::string_view b_int = b.substr(0, b_dot);
  // "0.5": an integer part of "0" is shorter than any other.
  size_t a_len = a_int == "0" ? 0 : a_int.size();
  size_t b_len = b_int == "0" ? 0 : b_int.size();
  if (a_len != b_len) return a_len < b_len ? -1 : 1;
  int c = a_int.compare(b_int);
  if (c != 0) return Sign(c);
  std::string_view a_frac = a_dot == std::string_view::npos ? std::string_view() : a.substr(a_dot + 1);
  std::string_view b_frac = b_dot == std::string_view::npos ? std::string_view() : b.substr(b_dot + 1);
  // Without trailing zeros, fractions compare as digit strings ("05" < "1", "5" < "51").
  return Sign(a_frac.compare(b_frac));
}

bool SetsEqual(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.size() != b.size()) return false;
  // Elements are distinct, so equal sizes plus a ⊆ b means equal sets. Quadratic but allocation-free, which
  // beats sorting copies for the small sets items usually hold.
  if (a.size() > 64) {
    AttributeValue x, y;
    x.type = y.type = AttrType::kSS;
    x.set = a;
    y.set = b;
    return x == y;
  }
  for (const std::string& e : a) {
    bool found = false;
    for (const std::string& f : b) {
      if (e == f) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

void SortSetMembers(AttrType set_type, std::vector<std::string>* members) {
  if (set_type == AttrType::kNS) {
    std::sort(members->begin(), members->end(),
              [](const std::string& a, const std::string& b) { return CompareNumbers(a, b) < 0; });
  } else {
    // std::string compares its chars as unsigned bytes (char_traits<char>::compare).
    std::sort(members->begin(), members->end());
  }
}

int CompareNumbers(std::string_view a, std::string_view b) {
  if (LooksCanonical(a) && LooksCanonical(b)) {
    bool a_neg = !a.empty() && a[0] == '-';
    bool b_neg = !b.empty() && b[0] == '-';
    if (a_neg != b_neg) return a_neg ? -1 : 1;
    if (a_neg) return -CompareMagnitude(a.substr(1), b.substr(1));
    return CompareMagnitude(a, b);
  }
  Decimal x, y;
  if (!Decimal::Parse(a, &x).ok() || !Decimal::Parse(b, &y).ok()) return 0;
  return Sign(x.Compare(y));
}

int CompareOrdered(const AttributeValue& a, const AttributeValue& b) {
  DP_DCHECK(a.type == b.type && IsOrderedType(a.type));
  if (a.type == AttrType::kN) return CompareNumbers(a.scalar, b.scalar);
  // S and B: unsigned bytes (memcmp semantics), a proper prefix first.
  size_t n = a.scalar.size() < b.scalar.size() ? a.scalar.size() : b.scalar.size();
  int c = n == 0 ? 0 : std::memcmp(a.scalar.data(), b.scalar.data(), n);
  if (c != 0) return Sign(c);
  if (a.scalar.size() == b.scalar.size()) return 0;
  return a.scalar.size() < b.scalar.size() ? -1 : 1;
}

bool ValuesEqual(const AttributeValue& a, const AttributeValue& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case AttrType::kS:
    case AttrType::kB:
    case AttrType::kN: return a.scalar == b.scalar;  // N is canonical: equal numbers are equal text
    case AttrType::kBool: return a.boolean == b.boolean;
    case AttrType::kNull: return true;
    case AttrType::kL: {
      if (a.list.size() != b.list.size()) return false;
      for (size_t i = 0; i < a.list.size(); i++) {
        if (!ValuesEqual(a.list[i], b.list[i])) return false;
      }
      return true;
    }
    case AttrType::kM: {
      if (a.map.size() != b.map.size()) return false;
      auto i = a.map.begin();
      auto j = b.map.begin();
      for (; i != a.map.end(); ++i, ++j) {
        if (i->first != j->first || !ValuesEqual(i->second, j->second)) return false;
      }
      return true;
    }
    case AttrType::kSS:
    case AttrType::kNS:
    case AttrType::kBS: return SetsEqual(a.set, b.set);
  }
  return false;
}

}  // namespace dynapage
