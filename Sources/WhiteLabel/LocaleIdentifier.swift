/// A locale identifier as an owner writes one, in POSIX form (`fr_FR`) or BCP 47's (`fr-FR`): both name one locale,
/// read as `fr_FR`. An owner's French text keyed `fr-FR` was never shown on a French phone, and `FR` or `xx_YY` were
/// taken without a word (session 28).
public enum LocaleIdentifier {
    /// `fr_FR` for `fr-FR` or `fr_FR`, `zh_Hant_TW` for `zh-Hant-TW`, `es_419`, `fr`; nil for what is not a locale: a
    /// language that is not ISO 639-1's (or three lowercase letters, `fil`), a region that is not ISO 3166-1's or
    /// three digits, letters in the other case (`FR`, `fr_fr`).
    public static func posix(_ text: String) -> String? {
        let parts = text.split(separator: text.contains("-") ? "-" : "_", omittingEmptySubsequences: false).map(
            String.init)
        guard (1...3).contains(parts.count), let language = parts.first, isLanguage(language) else { return nil }
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4 {
            guard script.prefix(1).allSatisfy(\.isUppercase), script.allSatisfy({ $0.isASCII && $0.isLetter }),
                script.dropFirst().allSatisfy(\.isLowercase)
            else { return nil }
            rest = rest.dropFirst()
        }
        if let region = rest.first {
            guard rest.count == 1, isRegion(region) else { return nil }
        }
        return parts.joined(separator: "_")
    }

    /// Why `text` is not a locale, in words naming the form one takes; nil when it is one. A `.storekit` file's
    /// localization keyed "english" was sold as a translation no phone is set to (session 38).
    public static func problem(_ text: String) -> String? {
        guard posix(text) == nil else { return nil }
        return "\"\(text)\" is not a locale such as fr_FR, fr-FR or fr (a language of ISO 639-1, lower case, "
            + "then a region of ISO 3166-1, upper case)"
    }

    /// `fr` of `fr_FR` or `fr-FR`.
    public static func language(of identifier: String) -> String {
        String(identifier.prefix { $0 != "_" && $0 != "-" })
    }

    private static func isLanguage(_ text: String) -> Bool {
        if text.count == 3 { return text.allSatisfy { $0.isASCII && $0.isLowercase } }
        return text.count == 2 && languages.contains(text)
    }

    private static func isRegion(_ text: String) -> Bool {
        if text.count == 3 { return text.allSatisfy { $0.isASCII && $0.isNumber } }
        return text.count == 2 && regions.contains(text)
    }

    /// ISO 639-1.
    private static let languages = Set(
        """
        aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de
        dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id
        ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu
        lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu
        rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr
        ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// ISO 3166-1 alpha-2.
    private static let regions = Set(
        """
        AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT
        BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH
        ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT
        HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS
        LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI
        NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG
        SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG
        UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
        """.split(whereSeparator: \.isWhitespace).map(String.init))
}
