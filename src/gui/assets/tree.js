// The move tree (as lila's `tree`): every line tried from a position is kept. A node is
// {move, children, score, by}; the first child is the main continuation, the others are
// variations; `by` is who decided the move, {side, name} as a record names the player
// (none for a move tried with nobody playing). The page shows one line at a time: the path to a node, then the node's main
// continuation.

export function node(move = null) {
  return { move, children: [], score: undefined, by: undefined };
}

// A tree holding only `moves` as its main line.
export function treeOf(moves) {
  const root = node();
  addLine(root, moves);
  return root;
}

// The nodes along `moves` from the root (root first); stops where the tree has no such
// move.
export function nodesOf(root, moves) {
  const nodes = [root];
  for (const mv of moves) {
    const next = nodes[nodes.length - 1].children.find(c => c.move === mv);
    if (!next) break;
    nodes.push(next);
  }
  return nodes;
}

// Adds `moves` to the tree (new moves as the last child: a variation, or the main
// continuation where there was none).
export function addLine(root, moves) {
  let at = root;
  for (const mv of moves) {
    let next = at.children.find(c => c.move === mv);
    if (!next) { next = node(mv); at.children.push(next); }
    at = next;
  }
  return at;
}

// `moves` followed by the main continuation of the node they reach (none when the tree
// does not hold them all yet).
export function continued(root, moves) {
  const nodes = nodesOf(root, moves);
  const line = moves.slice();
  if (nodes.length !== moves.length + 1) return line;
  for (let at = nodes[nodes.length - 1]; at.children.length; at = at.children[0]) line.push(at.children[0].move);
  return line;
}

// The main line: first children from the root.
export function mainLine(root) {
  return continued(root, []);
}

// The other lines branching off `moves` (the shown line): [{ply, parent, line}], `line` a
// variation's moves from its branching ply on along its main continuation, `ply` the
// 1-based ply it replaces.
export function branches(root, moves) {
  const nodes = nodesOf(root, moves);
  const out = [];
  for (let i = 0; i < nodes.length - 1; i++) {
    for (const c of nodes[i].children) {
      if (c === nodes[i + 1]) continue;
      const line = [c.move];
      for (let at = c; at.children.length; at = at.children[0]) line.push(at.children[0].move);
      out.push({ ply: i + 1, line });
    }
  }
  return out;
}

// Moves the branch of the shown line closest to its end one place up among its siblings
// (repeated: to the main line). Returns whether anything moved.
export function promote(root, moves) {
  const nodes = nodesOf(root, moves);
  for (let i = nodes.length - 1; i > 0; i--) {
    const siblings = nodes[i - 1].children, at = siblings.indexOf(nodes[i]);
    if (at > 0) {
      siblings.splice(at, 1);
      siblings.splice(at - 1, 0, nodes[i]);
      return true;
    }
  }
  return false;
}

// Deletes the move at `ply` of `moves` and everything after it.
export function cut(root, moves, ply) {
  const nodes = nodesOf(root, moves.slice(0, ply));
  if (nodes.length !== ply + 1 || ply === 0) return false;
  const parent = nodes[ply - 1];
  parent.children = parent.children.filter(c => c !== nodes[ply]);
  return true;
}

// The variations as a record writes them (docs/records.md): [{parent, ply, moves}],
// `parent` 0 the main line or the 1-based number of an earlier variation.
export function toVariations(root) {
  const out = [];
  // A line: its number (0 main), the node its moves continue from (its own first move's
  // node for a variation), and the ply that node's first child is played at.
  const walk = (number, start, firstPly) => {
    const nodes = [start];
    for (let at = start; at.children.length; at = at.children[0]) nodes.push(at.children[0]);
    // nodes[k] is the node reached after ply firstPly - 1 + k; its children after the
    // first are the variations of this line at ply firstPly + k.
    for (let k = 0; k < nodes.length; k++) {
      for (const c of nodes[k].children.slice(1)) {
        const moves = [c.move];
        for (let at = c; at.children.length; at = at.children[0]) moves.push(at.children[0].move);
        out.push({ parent: number, ply: firstPly + k, moves });
        walk(out.length, c, firstPly + k + 1);
      }
    }
  };
  walk(0, root, 1);
  return out;
}

// A tree from a record's main line and variations (each variation's whole line is its
// parent's first `ply - 1` moves, then its own).
export function fromVariations(moves, variations) {
  const root = treeOf(moves);
  const lines = [moves];
  for (const v of variations) {
    const parent = lines[v.parent] || [];
    const line = parent.slice(0, v.ply - 1).concat(v.moves);
    lines.push(line);
    addLine(root, line);
  }
  return root;
}
