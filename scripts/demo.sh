#!/bin/sh
# make demo: a short scripted session on a copy of the example campaign.
# Everything the players see is printed; the examples/ folder itself is never touched.
set -eu
campaign=$(mktemp -d "${TMPDIR:-/tmp}/cwx-demo.XXXXXX")
trap 'rm -rf "$campaign"' EXIT INT TERM
cp -R examples/. "$campaign"
cd "$campaign"

scene() { printf '\n=== %s ===\n' "$*"; }
say() { printf '\n# %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

scene "ClockWorx: Kris and the leaky steam valve"
run cwx char show kris.toml
say "Before he risks it: the exact odds of a guess with Repair 3."
run cwx odds clock --score 3
say "The GM plays remotely: she seals her number (4) and shares only the commitment."
run cwx clock pick --seal --target 4
say "Kris guesses 3; resolving against the sealed number reveals it."
run cwx clock resolve --sealed --guess 3 --trait Repair --char kris.toml
say "Next scene: Kris braces the hull with Tough 5 and guesses the number on the nose."
run cwx clock resolve --target 9 --guess 9 --trait tough --char kris.toml
say "No trait for swimming: untrained, he must guess exactly."
run cwx clock resolve --target 12 --guess 1 --char kris.toml
say "18 experience: a new trait costs 12."
run cwx xp spend --char kris.toml --new Climb
run cwx char show kris.toml

scene "Color Wheel: Sue and Rick share one bag"
run cwx bag show bag.toml
say "The odds of a Blue action from this bag, if Sue keeps any white she draws."
run cwx odds wheel --color blue --bag bag.toml --keep-white
say "Sue climbs a fence (Blue, Athletic). She draws white, keeps it for later, draws again."
run cwx bag draw --char sue.toml --bag bag.toml --trait Athletic --drawn white --drawn blue --keep-white
say "She draws black and keeps it too (bad luck saved for later), then red: a failure."
run cwx bag draw --char sue.toml --bag bag.toml --color blue --drawn black --drawn red --keep-black
say "Now that the failure is known, she spends the white she kept: luck after the fact."
run cwx luck spend --char sue.toml --bag bag.toml
say "Holding a black, the next white she draws is cancelled: the black goes back to the reserve."
run cwx bag draw --char sue.toml --bag bag.toml --color green --drawn white
say "Rick talks his way past the guard (Purple, Friendly: red or blue will do)."
run cwx bag draw --char rick.toml --bag bag.toml --trait friendly --drawn black --drawn red --keep-black
say "Rick sneaks after him (Red, Quick): he keeps another black, a blue fails, he spends his white."
run cwx bag draw --char rick.toml --bag bag.toml --trait quick --drawn black --drawn blue --keep-black --spend-white
say "Rick picks the lock (Red, Quick): red, a success... but the GM spoils it with one of his blacks."
run cwx bag draw --char rick.toml --bag bag.toml --trait quick --drawn red
run cwx luck curse --char rick.toml --bag bag.toml
scene "End of the game"
run cwx game end --char sue.toml --bag bag.toml
run cwx game end --char rick.toml --bag bag.toml
run cwx bag show bag.toml

scene "A scene in one process"
say "Several actions in one cwx: each journaled and locked as if run alone."
printf '%s\n' '# the morning after' 'resolve -T 6 -g 5 -c kris.toml -t repair' \
    'draw -c sue.toml -b bag.toml -C blue --drawn blue' > scene.cwx
run cat scene.cwx
run cwx play scene.cwx

scene "The campaign journal"
run cwx log --last 6
run cwx check
