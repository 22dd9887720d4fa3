base='name = "kris"
system = "clockworx"
xp = 0

[traits]
Scrounge = 3
Repair = 3
Tough = 5
'
t() { # label, ours-append, theirs-append, base-append
  printf '%s%s' "$base" "$4" > O.toml; printf '%s%s' "$base" "$2" > A.toml; printf '%s%s' "$base" "$3" > B.toml
  timeout 20 cwx git merge O.toml A.toml B.toml kris.toml >out 2>err; rc=$?
  echo "== $1 rc=$rc"; cat A.toml | sed -n '9,$p'; head -c 600 err
}
