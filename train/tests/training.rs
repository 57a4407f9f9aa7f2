//! A whole training run on a tiny self-play file: the loss falls and the file written is a
//! network the engine accepts for the game.

use shove::akiba;
use shove::evaluation::Evaluation;
use shove::game::MoveList;
use shove::matches::Adjudication;
use shove::nnue::{EvalKind, Network};
use shove::pipeline::openings::OpeningConfig;
use shove::pipeline::selfplay::{Budget, SelfplayConfig, run_selfplay};
use shove::pipeline::shard::Shard;
use shove_train::trainer::{TrainConfig, TrainReport, TrainRun, run};
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shove-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Trains Akiba's network on `data` into `out` with `config`, keeping what it prints.
fn train_akiba(
    data: &Path,
    out: &Path,
    config: TrainConfig,
    lines: &mut Vec<String>,
) -> Result<TrainReport, String> {
    run(
        &TrainRun {
            game: "akiba".into(),
            data: vec![data.to_path_buf()],
            out: out.to_path_buf(),
            config,
        },
        &mut |line| lines.push(line.to_string()),
    )
}

#[test]
fn training_on_selfplay_data_lowers_the_loss_and_writes_a_valid_network() {
    let dir = temp_dir("training");
    let data = dir.join("akiba.data");
    let report = run_selfplay(&SelfplayConfig {
        game: "akiba".into(),
        rule_options: Vec::new(),
        games: 8,
        seed: 3,
        budget: Budget::Nodes(300),
        concurrency: 1,
        adjudication: Adjudication {
            max_plies: 400,
            repetition_draw: true,
        },
        openings: OpeningConfig::for_game::<shove::akiba::Position>(),
        shard: Shard::default(),
        hash_megabytes: 4,
        // The classical evaluation: the data must not change with the built-in network.
        evaluation: Some(EvalKind::Classical),
        eval_file: None,
        out: data.clone(),
        progress: false,
    })
    .expect("self-play");
    assert_eq!(report.games, 8);

    // Written into a folder that does not exist yet: the tool makes it.
    let out = dir.join("nets").join("akiba.nnue");
    let mut lines = Vec::new();
    let trained = train_akiba(
        &data,
        &out,
        TrainConfig {
            hidden: 16,
            epochs: 8,
            batch: 64,
            learning_rate: 0.005,
            validation_one_in: 4,
            ..TrainConfig::default()
        },
        &mut lines,
    )
    .expect("training");
    let text = lines.join("\n");
    assert!(trained.train_positions > 100, "{text}");
    let (first, last) = (trained.train_losses[0], trained.train_losses[7]);
    assert!(
        last < 0.8 * first,
        "training loss {first} -> {last}\n{text}"
    );
    assert!(trained.k > 0.0 && trained.k < 1.0, "{text}");
    assert!(
        text.contains("classical evaluation: training loss"),
        "{text}"
    );
    assert!(text.contains("epoch 8/8"), "{text}");
    assert!(text.contains("kept epoch"), "{text}");

    let bytes = std::fs::read(&out).expect("network written");
    assert_eq!(bytes.len(), trained.bytes);
    let network = Network::from_bytes(&bytes).expect("a valid network file");
    network.check::<akiba::Position>().expect("for akiba");
    assert_eq!(network.hidden(), 16);
    // The file records its data and settings.
    let record = network.training();
    for said in [
        "akiba.data (game=akiba",
        "nodes=300",
        "hidden 16",
        "of 8, batch 64",
        "fitted",
    ] {
        assert!(record.contains(said), "{said}: {record}");
    }
    assert!(
        network.check::<shove::offboard::Position>().is_err(),
        "not for another game"
    );

    // A given K is used as it is, and the network's scale is its inverse.
    let given = train_akiba(
        &data,
        &out,
        TrainConfig {
            hidden: 16,
            epochs: 1,
            validation_one_in: 4,
            k: Some(0.002),
            ..TrainConfig::default()
        },
        &mut Vec::new(),
    )
    .expect("training with a given K");
    assert_eq!(given.k, 0.002);
    let network = Network::from_bytes(&std::fs::read(&out).expect("written")).expect("valid");
    assert_eq!(network.scale(), 500.0);
    assert!(
        network.training().contains("K 0.002000 (given)"),
        "{}",
        network.training()
    );

    // Started from that network with a step too small to move it, under another K: the
    // output layer is rescaled, so the evaluations stay those of the file it started from
    // (to the rounding of the rescaled output weights; without the rescaling they would be
    // off by the ratio of the two K).
    let next = dir.join("next.nnue");
    let started = train_akiba(
        &data,
        &next,
        TrainConfig {
            hidden: 16,
            epochs: 1,
            learning_rate: 1e-9,
            validation_one_in: 4,
            init: Some(out.clone()),
            ..TrainConfig::default()
        },
        &mut Vec::new(),
    )
    .expect("training from a network");
    assert_ne!(started.k, 0.002, "fitted, not the file's");
    let continued = Network::from_bytes(&std::fs::read(&next).expect("written")).expect("valid");
    assert!(
        continued
            .training()
            .contains("started from akiba.nnue (checksum"),
        "{}",
        continued.training()
    );
    let evaluates_as_before = |continued: &Network| {
        let mut position = akiba::Position::start(Default::default());
        let mut moves = MoveList::new();
        for ply in 0..30 {
            let (was, now) = (network.evaluate(&position), continued.evaluate(&position));
            assert!(
                (was - now).abs() <= 5 + was.abs() / 50,
                "ply {ply}: {was} then {now}"
            );
            position.legal_moves(&mut moves);
            let Some(&mv) = moves.get(ply * 7 % moves.len().max(1)) else {
                break;
            };
            position.play(mv);
        }
    };
    evaluates_as_before(&continued);
    // Started from that network with buckets and `hidden` units, too small a step to move.
    let started_with_buckets = |name: &str, hidden: usize| -> Network {
        let path = dir.join(name);
        train_akiba(
            &data,
            &path,
            TrainConfig {
                hidden,
                epochs: 1,
                learning_rate: 1e-9,
                validation_one_in: 4,
                output_buckets: true,
                init: Some(out.clone()),
                ..TrainConfig::default()
            },
            &mut Vec::new(),
        )
        .expect("a bucketed network from one of one output layer, as wide or wider");
        Network::from_bytes(&std::fs::read(&path).expect("written")).expect("valid")
    };
    // A network of one output layer starts every output bucket of a bucketed one.
    let bucketed = started_with_buckets("bucketed.nnue", 16);
    assert_eq!(bucketed.buckets(), akiba::Position::NETWORK_BUCKETS);
    evaluates_as_before(&bucketed);
    // A wider network keeps the file's units and starts from its evaluations.
    let wider = started_with_buckets("wider.nnue", 40);
    assert_eq!(wider.hidden(), 40);
    evaluates_as_before(&wider);
    // A narrower one is refused with the reason.
    let refused = train_akiba(
        &data,
        &dir.join("refused.nnue"),
        TrainConfig {
            hidden: 8,
            epochs: 1,
            init: Some(out.clone()),
            ..TrainConfig::default()
        },
        &mut Vec::new(),
    )
    .expect_err("16 hidden units are more than 8");
    assert!(refused.contains("16 hidden units"), "{refused}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}
