# Sourced by ci/check-chart.sh and ci/show-example.sh: the cached launcher that starts a command of the library with
# java directly, as a tool starts, instead of through Maven. A Maven run builds the command (compile) and writes
# chart-tests' runtime classpath (exec:exec@check-chart-classpath) to $launcher/classpath; write_launcher turns that
# into chart-tests' classes as a jar (a class-data archive takes classes from jars only, and the jar registers
# UnpackedHelmLibrary as helm-java's native library) and $launcher/launch-classpath; launcher_java starts a main class
# on it with C1 only and the serial collector (a command of seconds: C2 and G1's threads cost more than they gain) and
# the class-data archive the first direct run wrote at its exit. Both commands share one launcher directory.
# Needs: $repo (the repository root), $launcher (the launcher directory). Cold cost: one Maven compile of chart-tests
# (the first run, and after a pom, chart-tests' main sources, ci/go.mod, ci/crds/ or ci/fetch-crds.sh changed).

# The launcher's directory: NIM_CHECK_CHART_LAUNCHER, else chart-tests/target/check-chart-launcher.
launcher=${NIM_CHECK_CHART_LAUNCHER:-$repo/chart-tests/target/check-chart-launcher}
launcher_defaults=()

# Whether the launcher a Maven run left is current: built after every input of the build changed, every classpath
# entry still there.
launcher_current() {
  [[ -f "$launcher/stamp" && -f "$launcher/launch-classpath" ]] || return 1
  local newer entry entries
  newer=$(find "$repo/pom.xml" "$repo/chart-tests/pom.xml" "$repo/chart-tests/src/main" "$repo/ci/go.mod" "$repo/ci/fetch-crds.sh" "$repo/ci/crds" \
    -newer "$launcher/stamp" -print -quit 2>/dev/null) || return 1
  [[ -z "$newer" ]] || return 1
  IFS=: read -r -a entries <"$launcher/launch-classpath"
  for entry in "${entries[@]}"; do
    [[ -e "$entry" ]] || return 1
  done
}

# The launcher, made of what the Maven run wrote: chart-tests' classes as a jar that also registers UnpackedHelmLibrary
# as helm-java's native library, first on the classpath.
write_launcher() {
  local classes rest jar_tool services
  IFS=: read -r classes rest <"$launcher/classpath"
  [[ -d "$classes" ]] || return 1
  jar_tool=$(dirname "$(readlink -f "$(command -v java)")")/jar
  [[ -x "$jar_tool" ]] || jar_tool=jar
  services="$launcher/services.$$"
  mkdir -p "$services/META-INF/services"
  echo dev.nimchart.render.UnpackedHelmLibrary >"$services/META-INF/services/com.marcnuri.helm.jni.NativeLibrary"
  "$jar_tool" --create --file "$launcher/chart-tests.jar.$$" -C "$classes" . -C "$services" . || { rm -rf "$services"; return 1; }
  rm -rf "$services"
  mv "$launcher/chart-tests.jar.$$" "$launcher/chart-tests.jar"
  printf '%s\n' "$launcher/chart-tests.jar:$rest" >"$launcher/launch-classpath.$$"
  mv "$launcher/launch-classpath.$$" "$launcher/launch-classpath"
  rm -f "$launcher/classes.jsa"
}

# launcher_java KUBECONFIG_FILE JAVA_ARGS...: java on the launcher's classpath in chart-tests/ (the working directory
# Maven's exec executions give a command), CI=true, the lookup stub's kubeconfig, Helm's unpacked library, then the
# caller's defaults (the array launcher_defaults: the system properties its Maven execution gives), then the -Dnim.*
# words of MAVEN_OPTS (as Maven would take them; a later -D wins), then JAVA_ARGS: this run's own properties, the main
# class and its arguments.
launcher_java() {
  local kubeconfig=$1 opts=() maven_opts=() jsa_opts=() word jsa="$launcher/classes.jsa" dump="" status=0
  shift
  read -r -a maven_opts <<<"${MAVEN_OPTS:-}"
  for word in "${maven_opts[@]}"; do
    [[ "$word" == -Dnim.* ]] && opts+=("$word")
  done
  if [[ -f "$jsa" ]]; then
    jsa_opts=(-XX:SharedArchiveFile="$jsa")
  else
    dump="$jsa.$$"
    jsa_opts=(-XX:ArchiveClassesAtExit="$dump")
  fi
  # Helm's Go runtime collects garbage less often (as the tests run it, chart-tests/pom.xml nim.test.gogc and
  # nim.test.gomemlimit): about 6% less CPU for the offline command; a value the user set wins
  (cd "$repo/chart-tests" && CI=true KUBECONFIG="$kubeconfig" GOGC="${GOGC:-400}" GOMEMLIMIT="${GOMEMLIMIT:-1GiB}" exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
    -Xshare:auto '-Xlog:cds*=off' "${jsa_opts[@]}" -cp "$(cat "$launcher/launch-classpath")" \
    "-Dnim.crds.dir=$repo/chart-tests/target/classes/dev/nimchart/checks/crds" "-Dnim.ci.dir=$repo/chart-tests/../ci" \
    "-Dnim.helm.library.dir=$launcher/helm" "${launcher_defaults[@]}" "${opts[@]}" "$@") || status=$?
  if [[ -n "$dump" && -s "$dump" ]]; then
    mv "$dump" "$jsa"
  else
    rm -f "$dump"
  fi
  return "$status"
}
