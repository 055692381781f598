import Foundation

/// The demo's safety guidelines: the wildlife, plants and gear of the Southern California
/// foothills, and of the mountains above about 1,200 m.
enum DemoGuidelines {
    static func forRegion(_ region: DemoTrails.Region, mountains: Bool) -> [SafetyGuideline] {
        var out = [rattlesnake, mountainLion, coyote]
        if mountains { out.insert(blackBear, at: 0) }
        out += [poisonOak, mountains ? stingingNettle : jimsonweed]
        out += mountains ? [minersLettuce, elderberry] : [pricklyPear, minersLettuce]
        out += [water, sunAndLayers, firstAid]
        if mountains { out.append(traction) }
        return out
    }

    private static func g(_ kind: SafetyGuideline.Kind, _ slug: String, _ name: String, _ text: String, signs: String? = nil) -> SafetyGuideline {
        SafetyGuideline(kind: kind, name: name, description: text, warningSigns: signs, pictureId: "demo-guide-\(slug)")
    }

    static let rattlesnake = g(.predator, "rattlesnake", "Southern Pacific rattlesnake",
        "Rests in the sun on rocks and trail edges from spring to autumn. It strikes only when stepped on or handled: keep to the trail, look before putting hands on ledges, and back away slowly.",
        signs: "A dry buzzing rattle; a coiled snake with a broad, triangular head; shed skins beside the path.")
    static let mountainLion = g(.predator, "mountain-lion", "Mountain lion",
        "Rarely seen and rarely dangerous. Hike in company, keep children close, and if you meet one: stand tall, face it, speak firmly and never run.",
        signs: "Large round paw prints without claw marks; scratched-up mounds of leaves over a cached kill; deer remains off the trail.")
    static let coyote = g(.predator, "coyote", "Coyote",
        "Common at dawn and dusk, even near houses. Keep dogs on a leash and small children beside you; make yourself big and loud if one comes close.",
        signs: "Howling and yipping; narrow oval tracks in a straight line; scat with fur and fruit seeds on the trail.")
    static let blackBear = g(.predator, "black-bear", "American black bear",
        "Lives in the San Bernardino mountains and is drawn to food. Never feed one, keep food packed away, and give it room: speak calmly and back off; if it charges, stand your ground.",
        signs: "Claw marks on trees; torn-open logs and stumps; large scat full of berries or seeds; overturned bins.")
    static let poisonOak = g(.dangerousPlant, "poison-oak", "Western poison oak",
        "A shrub or vine with leaves in threes, glossy green in spring and red in autumn; bare sticks in winter still cause the rash. Do not touch it, and wash skin and clothes that brushed it.")
    static let jimsonweed = g(.dangerousPlant, "jimsonweed", "Sacred datura (jimsonweed)",
        "Large white trumpet flowers on a sprawling grey-green plant. Every part is poisonous to people and pets.")
    static let stingingNettle = g(.dangerousPlant, "stinging-nettle", "Stinging nettle",
        "Grows in damp shade by streams; tiny hairs on the leaves and stems sting for hours. Long trousers help.")
    static let pricklyPear = g(.ediblePlant, "prickly-pear", "Prickly pear",
        "The red fruit (tuna) is sweet and edible once the fine spines are burnt or scraped off. Eat only what you are sure of, and leave plenty for wildlife.")
    static let minersLettuce = g(.ediblePlant, "miners-lettuce", "Miner's lettuce",
        "Round leaves with a small white flower in the middle, in shady spots in late winter and spring; mild and crisp, eaten raw. Pick only where plants are many.")
    static let elderberry = g(.ediblePlant, "elderberry", "Blue elderberry",
        "Clusters of dusty blue berries in late summer. Edible only when ripe and cooked; raw berries, leaves and stems make you sick.")
    static let water = g(.equipment, "water", "Water",
        "About half a litre an hour of walking, more in summer heat; there is no drinking water on most trails. Carry it even on short walks.")
    static let sunAndLayers = g(.equipment, "layers", "Sun protection and layers",
        "A hat, sunscreen and sunglasses; a warm layer and a wind shell, since the wind on ridges and the evening chill come quickly.")
    static let firstAid = g(.equipment, "first-aid", "First aid, light and a charged phone",
        "A small first-aid kit, a headlamp in case the hike runs late, and a phone with the trail saved for offline use: signal is patchy in the canyons.")
    static let traction = g(.equipment, "traction", "Traction for snow and ice",
        "From December to March the shaded stretches ice over: microspikes and poles make them safe. Turn back where the trail disappears under snow.")
}
